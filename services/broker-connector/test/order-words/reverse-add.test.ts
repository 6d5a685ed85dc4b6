import t from 'tap'
import { Durables } from '../../src/intake/plugin.ts'
import { drained, publishAlert } from '../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../trading-helper.ts'
import { netMnq, openedTrade } from '../trading/positions/exit-helper.ts'

/** u-0 (account 9000) allows reversals and pyramiding; u-1 (9001) keeps the defaults. Alerts go to the user they name. */
async function twoTraders(t: Parameters<typeof paperBroker>[0]) {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { ALERT_ROUTING: 'targeted' })
  const limits = { maxOpenTrades: 10, maxContractsPerOrder: 5 }
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: { limits, positionChanges: { reversals: 'allow', pyramiding: 'allow' } } })
  await liveTrader(db, config, { userId: 'u-1', username: 'trader1', riskConfig: { limits } })
  await connect(app, 'u-0')
  await connect(app, 'u-1')
  return { broker, app, db }
}

t.test('reverse and add by the account\'s settings: closed first then entered, once; added within the limits; refused by default, saying why', async (t) => {
  const { broker, app, db } = await twoTraders(t)

  // Reverse: a long of 5 ($100 a contract at the stop), then `reverse` to short.
  const long = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, long)
  const longRecord = await settledRecord(db, long.alertId)
  await openedTrade(db, longRecord.id)
  t.equal(netMnq(broker), 5)
  const reverse = mnqEntry({ userId: 'u-0', action: null, orderWord: 'reverse', sl: 21050, tp: 20900 })
  await publishAlert(app, reverse)
  const reversed = await settledRecord(db, reverse.alertId)
  t.match(reversed, { status: 'placed', action: 'SHORT', order_quantity: 5, reason: /^reversal: the LONG MNQZ6 position of 5 is closed first/ }, 'the entry placed, the close it waited for on the record')
  t.match(await tradeOfRecord(db, longRecord.id), { status: 'closed', close_alert_id: reverse.alertId }, 'the long closed for the reversal')
  await openedTrade(db, reversed.id)
  t.equal(netMnq(broker), -5, 'short 5: closed, then entered')
  // Delivered again past the bus's duplicate window: nothing is closed or placed twice.
  await publishAlert(app, reverse, undefined, `${reverse.alertId}-again`)
  await drained(app, 'ALERTS', Durables.entry)
  t.equal(netMnq(broker), -5)
  t.equal(broker.orders().filter((order) => order.clOrdId === `sig-${reversed.id}`).length, 1, 'one entry order')
  t.equal((await db.selectFrom('flatten_requests').select('id').where('alert_id', '=', reverse.alertId).execute()).length, 1, 'one close')

  // Add: at the 5-contract cap nothing more is added, and the record says why.
  const full = mnqEntry({ userId: 'u-0', action: null, orderWord: 'add', sl: 21050, tp: 20900 })
  await publishAlert(app, full)
  t.match(await settledRecord(db, full.alertId), { status: 'refused', refusal_code: 'pyramid_limit', reason: /position of 5 is already at the most one order may hold/ })

  // u-1 keeps the defaults: an add and an opposite entry are refused with the setting named.
  const first = mnqEntry({ userId: 'u-1', sl: 20900, tp: 21100 })
  await publishAlert(app, first)
  await openedTrade(db, (await settledRecord(db, first.alertId)).id)
  t.equal(netMnq(broker, 9001), 2, '$200 a contract at the stop: 2 fit the $500 budget')
  const add = mnqEntry({ userId: 'u-1', action: null, orderWord: 'add', sl: 20900, tp: 21100 })
  await publishAlert(app, add)
  t.match(await settledRecord(db, add.alertId), { status: 'refused', refusal_code: 'pyramid_not_allowed', reason: /positionChanges\.pyramiding is "refuse"/ })
  const opposite = mnqEntry({ userId: 'u-1', action: 'SHORT', sl: 21100, tp: 20900 })
  await publishAlert(app, opposite)
  t.match(await settledRecord(db, opposite.alertId), { status: 'refused', refusal_code: 'reversal_not_allowed', reason: /A LONG MNQ position of 2 is open: a SHORT entry would reverse it, and reversals are off/ })
  t.equal(netMnq(broker, 9001), 2, 'the default account still holds its long')
})

t.test('add on an account that allows pyramiding: the new level is held to the whole-position cap, with its own stop and target', async (t) => {
  const { broker, app, db } = await twoTraders(t)
  const first = mnqEntry({ userId: 'u-0', sl: 20900, tp: 21100 })
  await publishAlert(app, first)
  await openedTrade(db, (await settledRecord(db, first.alertId)).id)
  t.equal(netMnq(broker), 2)
  const add = mnqEntry({ userId: 'u-0', action: null, orderWord: 'add', sl: 20900, tp: 21100 })
  await publishAlert(app, add)
  const added = await settledRecord(db, add.alertId)
  t.match(added, { status: 'placed', action: 'LONG', order_quantity: 2 })
  await openedTrade(db, added.id)
  const more = mnqEntry({ userId: 'u-0', action: 'LONG', sl: 20900, tp: 21100 })
  await publishAlert(app, more)
  const last = await settledRecord(db, more.alertId)
  t.match(last, { status: 'placed', order_quantity: 1 }, 'a same-side entry adds too: 2 fit the budget, 1 fits the cap of 5')
  await openedTrade(db, last.id)
  t.equal(netMnq(broker), 5)
  const stops = broker.orders().filter((order) => order.clOrdId?.endsWith('.sl') && order.ordStatus === 'Working')
  t.equal(stops.reduce((sum, order) => sum + order.orderQty, 0), 5, 'the stops cover the whole position')
})

t.test('a strategy\'s reversal (its position before: long) passes the position guard on both legs: closed, then entered short', async (t) => {
  const { broker, app, db } = await twoTraders(t)
  const long = mnqEntry({ userId: 'u-0', strategyPosition: { before: 'FLAT', after: 'LONG', size: 5 } })
  await publishAlert(app, long)
  await openedTrade(db, (await settledRecord(db, long.alertId)).id)
  t.equal(netMnq(broker), 5)
  // TradingView's strategy message for the reversal: sell, previous position long, now short.
  const reverse = mnqEntry({ userId: 'u-0', action: 'SHORT', orderWord: 'reverse', sl: 21050, tp: 20900, strategyPosition: { before: 'LONG', after: 'SHORT', size: 5 } })
  await publishAlert(app, reverse)
  const reversed = await settledRecord(db, reverse.alertId)
  t.match(reversed, { status: 'placed', action: 'SHORT', reason: /^reversal: / }, 'the flat account between the legs is the reversal\'s own doing, not a strategy out of step')
  await openedTrade(db, reversed.id)
  t.equal(netMnq(broker), -5)
})
