import type { Test } from 'tap'
import t from 'tap'
import { startPaperBroker, type PaperAccount } from '@signals/dev-paper-broker'
import type { BrokerSession } from '../../../src/feeds/broker/broker-adapter.ts'
import { eventually, publishAlert } from '../../helper.ts'
import { PASSWORD, saveCredentials, seenState, statusOf } from '../../feeds/feed-helper.ts'
import { connect, feedCommand, liveTrader, mnqEntry, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

// Issue 20, item 5: a session trades the account named in the credentials, and nothing of the login's
// other accounts (an order, a fill, a cash change) closes or sizes anything of ours. The login trader0
// holds DEMO9000 (saved) and DEMO9100.

const SAVED: PaperAccount = { name: 'trader0', password: PASSWORD, userId: 100, accountId: 9000, accountName: 'DEMO9000' }
const OTHER: PaperAccount = { ...SAVED, accountId: 9100, accountName: 'DEMO9100' }

async function loginWithTwoAccounts(t: Test, savedFirst: boolean) {
  const broker = await startPaperBroker({ accounts: savedFirst ? [SAVED, OTHER] : [OTHER, SAVED], heartbeatMs: 200 })
  t.teardown(() => broker.close())
  return broker
}

/** An order on the other account, placed by hand at the broker (its events reach every socket of the login). */
const byHand = (action: 'Buy' | 'Sell', orderQty: number, stopPrice: number) => ({
  accountSpec: 'DEMO9100', accountId: 9100, action, symbol: 'MNQZ6', orderQty, orderType: 'Market', isAutomated: false,
  bracket1: { action: action === 'Buy' ? 'Sell' : 'Buy', orderType: 'Stop', stopPrice },
})

for (const savedFirst of [false, true]) {
  t.test(`the saved account (listed ${savedFirst ? 'first' : 'second'}) is traded; the other account's orders, fills and cash touch nothing of ours`, async (t) => {
    const broker = await loginWithTwoAccounts(t, savedFirst)
    broker.setPrice('MNQZ6', '21000')
    const { app, db, config } = await tradingApp(t, broker)
    await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
    await connect(app, 'u-0')
    t.match(await statusOf(app, 'u-0'), { state: 'connected', detail: 'account DEMO9000' })

    // The other account loses 20,000 (10 contracts, 1,000 points, $2 a point): its balance is 30,000.
    const bought = broker.placeOso(9100, byHand('Buy', 10, 19000))
    t.ok('orderId' in bought, 'the other account bought')
    broker.setPrice('MNQZ6', '20000')
    broker.liquidate(9100, broker.orders()[0]?.contractId as number)
    t.equal(broker.balance(9100), '30000')
    broker.setPrice('MNQZ6', '21000')

    // Our entry is sized from the saved account's 50,000: 1 % is $500, 50 points at $2 a point is 5 contracts.
    const alert = mnqEntry()
    await publishAlert(app, alert)
    const record = await settledRecord(db, alert.alertId)
    t.match(record, { status: 'placed', order_quantity: 5 }, 'sized from the saved account, not the other one')
    t.same(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${record.id}`)).map((order) => order.accountId), [9000, 9000, 9000], 'the bracket went to the saved account')
    await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
    const opened = await tradeOfRecord(db, record.id)
    t.match(opened, { status: 'open', broker_account_id: 9000 })
    t.equal(Number(opened?.quantity), 5)

    // The other account sells MNQZ6 without our tag (a flatten by hand would look the same on our account).
    const sold = broker.placeOso(9100, byHand('Sell', 5, 22000))
    t.ok(broker.fills().some((fill) => 'orderId' in sold && fill.orderId === sold.orderId), 'the other account sold')
    // A barrier: an event of our own account after the other's, so everything before it has been applied.
    broker.setPrice('MNQZ6', '21100')
    await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
    const closed = await tradeOfRecord(db, record.id)
    t.equal(closed?.result, 'TP', "our trade was closed by its own target, not by the other account's sell")
    t.equal(Number(closed?.exit_price), 21100)
    const session = app.feeds.session('u-0') as BrokerSession
    await eventually(() => app.trading.keeper.cashBalanceOf('u-0', session) === broker.balance(9000))
    t.equal(app.trading.keeper.cashBalanceOf('u-0', session), '51000', 'the cash the entry flow sizes from is the saved account\'s (50,000 + 100 points x 5 x $2)')
  })
}

t.test('a login without the saved account: the feed fails with the accounts it has, and is not retried until the credentials change', async (t) => {
  const broker = await loginWithTwoAccounts(t, false)
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await saveCredentials(db, config, 'u-0', 'trader0', PASSWORD, { account: 'DEMO12345' })
  await feedCommand(app, 'u-0', 'start')
  const failed = await seenState(app, 'u-0', 'error')
  t.equal(failed.detail, 'the broker login has no account "DEMO12345" (its active accounts: DEMO9100, DEMO9000); save one of these as the account')
  t.equal(app.feeds.session('u-0'), null)
  // The failure is final once published: a retry would be a reconnect timer on a feed the manager keeps.
  t.equal(app.feeds.hasFeed('u-0'), false, 'no retry is scheduled')
  const attempts = broker.tokenRequests.length
  await saveCredentials(db, config, 'u-0', 'trader0', PASSWORD, { account: '9000' })
  await feedCommand(app, 'u-0', 'restart')
  await seenState(app, 'u-0', 'connected')
  t.equal(broker.tokenRequests.length, attempts + 1, 'one login since the failure: the restart\'s')
  t.match(await statusOf(app, 'u-0'), { detail: 'account DEMO9000' }, 'the numeric id names the account too')
})
