import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { netMnq, openedTrade, tradesOf } from '../positions/exit-helper.ts'
import { EXIT_PLANS_ON, closeTwo, connectorAway, connectorBack, exitsOf, openPairs, ordersOf, withTargets } from './targets-helper.ts'

/**
 * The findings of the stop 30 review (docs/decisions/targets-breakeven.md): the stops of a trade with
 * several targets cover exactly what is held after a target filled in part, after a partial close of a
 * trade whose pairs were all refused, and after a partial close the broker refused. Each written to fail on
 * the code before the fix; none depends on how the pairs are cut (tags), only on what the broker holds.
 */

t.test('TP1 filled in part while the connector is away, then the stop price is hit: the stops cover what is held, the account ends flat', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  await connectorAway(app)
  // Each order fills at most one contract per price event: a target of 2 in one order fills in part.
  broker.setLiquidity('MNQZ6', 1)
  broker.setPrice('MNQZ6', '21025')
  const held = netMnq(broker)
  t.ok(held < 5, `TP1 took part of the position (${held} held)`)
  t.equal(exitsOf(broker, record.id).stops, held, 'the working stops close exactly what is held, with the connector away')
  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stops closed what was held: flat, not short')
  await connectorBack(app)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0, 'no target left to open a position')
})

t.test('every pair refused, then a partial close: the whole-position stop is resized to what is left', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  broker.interfere('order/placeOCO', { kind: 'refusal', failureText: 'test refusal' }, 5)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(async () => /targets placed: none/.test((await settledRecord(db, entry.alertId)).reason ?? ''))
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 0 }, 'no pair at the broker: the whole-position stop covers the 5')

  await publishAlert(app, closeTwo())
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => (await tradesOf(db, 'u-0')).length === 2)
  await app.trading.keeper.idle()
  t.match(ordersOf(broker, record.id), { sl: { ordStatus: 'Working', orderQty: 3 } }, 'the stop covers the 3 left')
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop closed the 3 held: flat, not short')
})

t.test('a partial close the broker refuses puts back what was cut for it: every contract held keeps a stop', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => /refused the exit/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', exit.alertId).executeTakeFirst())?.reason ?? ''))
  t.equal(netMnq(broker), 5, 'nothing closed')
  t.equal(exitsOf(broker, record.id).stops, 5, 'the stops cover the 5 held again, before the close is tried again')
  t.match((await tradeOfRecord(db, record.id))?.exit_note, /the partial close was not carried out and the targets cut for it are gone; a stop for their 2 contract\(s\) was placed at 20950/)

  // Tried again: the stop put back is cut first, and once the close fills the stops cover the 3 left.
  await eventually(() => netMnq(broker) === 3)
  await app.trading.keeper.idle()
  await eventually(() => exitsOf(broker, record.id).stops === 3)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stops closed the 3 held: flat, not short')
})
