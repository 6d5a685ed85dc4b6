import t from 'tap'
import { publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord } from '../../trading-helper.ts'
import { operatorSource } from '../../source-helper.ts'
import { entryOrders } from '../../broker-controls.ts'
import { eventually } from '../../helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'

/**
 * A subscription's size rule `multiplier` (issue 22 item 3; docs/decisions/signal-sources.md): the source's
 * entries are sized as the alert's quantity times the multiplier, whole contracts, instead of the account's
 * risk mode, and the account's limits still hold (the risk budget at the stop, the contract caps). u-0's
 * budget is $500: 5 MNQ contracts with a 50-point stop ($100 each), 5 also the default cap per order.
 */
async function subscribedWithMultiplier(t: Parameters<typeof connectedTrader>[0], multiplier: string) {
  const connected = await connectedTrader(t)
  const house = await operatorSource(connected.db)
  await connected.db.updateTable('signal_source_subscriptions').set({ size_rule: 'multiplier', multiplier }).where('source_id', '=', house).execute()
  return { ...connected, house }
}

t.test("the alert's quantity times the multiplier, within the account's limits", async (t) => {
  const { app, db, broker, house } = await subscribedWithMultiplier(t, '1.5')
  const three = mnqEntry({ userId: null, sourceId: house, quantity: 2, sl: 20900, tp: 21100 })
  await publishAlert(app, three)
  const record = await settledRecord(db, three.alertId)
  // 2 x 1.5 = 3; a 100-point stop is $200 a contract: 2 fit the $500 budget.
  t.match(record, { status: 'placed', order_quantity: 2 }, 'held to the risk budget')
  t.equal(record.size_multiplier, '1.5', 'the record keeps the rule it was sized by')
  t.equal(entryOrders(broker, `sig-${record.id}`)[0]?.orderQty, 2)

  const small = mnqEntry({ userId: null, sourceId: house, quantity: 2, raw: { n: 2 }, action: 'SHORT', sl: 21050, tp: 20900 })
  await publishAlert(app, small)
  t.match(await settledRecord(db, small.alertId), { status: 'refused', refusal_code: 'reversal_not_allowed' }, "the account's other rules still apply")
})

t.test('a multiplied quantity below one contract, or an alert without a quantity, is refused with the reason', async (t) => {
  const { app, db, house } = await subscribedWithMultiplier(t, '0.25')
  const one = mnqEntry({ userId: null, sourceId: house, quantity: 3 })
  await publishAlert(app, one)
  t.match(await settledRecord(db, one.alertId), { status: 'refused', refusal_code: 'invalid_quantity', reason: /3 x 0\.25 = 0\.75: less than one contract/ })
  const none = mnqEntry({ userId: null, sourceId: house, quantity: null, raw: { n: 2 } })
  await publishAlert(app, none)
  t.match(await settledRecord(db, none.alertId), { status: 'refused', refusal_code: 'no_quantity', reason: /multiplier/ })
})

t.test('a whole multiple is taken as it is when it fits', async (t) => {
  const { app, db, house } = await subscribedWithMultiplier(t, '2')
  const entry = mnqEntry({ userId: null, sourceId: house, quantity: 2 })
  await publishAlert(app, entry)
  t.match(await settledRecord(db, entry.alertId), { status: 'placed', order_quantity: 4 }, '2 x 2 = 4, within the $500 budget and the cap of 5')
})

t.test("a multiplied source's partial close counts in the source's contracts: its quantity and what remains times the multiplier", async (t) => {
  const { app, db, broker, house } = await subscribedWithMultiplier(t, '2')
  const entry = mnqEntry({ userId: null, sourceId: house, quantity: 2 })
  await publishAlert(app, entry)
  await openedTrade(db, (await settledRecord(db, entry.alertId)).id)
  t.equal(netMnq(broker), 4, 'the strategy entered 2, the account 2 x 2 = 4')

  const outcomeOf = async (alertId: string) => {
    await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('alert_id', '=', alertId).executeTakeFirst())?.done_at != null, 30_000)
    return (await db.selectFrom('flatten_requests').select('outcome').where('alert_id', '=', alertId).executeTakeFirstOrThrow()).outcome
  }
  // The strategy keeps 1 of its 2: the account keeps 1 x 2 = 2 of its 4.
  const keepOne = mnqExit({ sourceId: house, closes: 'LONG', closePart: { quantity: null, percent: null, remaining: 1 } })
  await publishAlert(app, keepOne)
  t.match(await outcomeOf(keepOne.alertId), /^partial close sent to the broker: 2 of the LONG MNQZ6 position of 4/, 'remaining 1 is 2 contracts here')
  await eventually(() => netMnq(broker) === 2)
  t.equal(netMnq(broker), 2)

  // The strategy closes its last 1: the account closes 1 x 2 = 2.
  const closeOne = mnqExit({ sourceId: house, closes: 'LONG', closePart: { quantity: 1, percent: null, remaining: null } })
  await publishAlert(app, closeOne)
  t.match(await outcomeOf(closeOne.alertId), /^partial close sent to the broker: 2 of the LONG MNQZ6 position of 2/, 'a quantity of 1 is 2 contracts here')
  await eventually(() => netMnq(broker) === 0)
  t.equal(netMnq(broker), 0, 'flat, as the strategy is')
})
