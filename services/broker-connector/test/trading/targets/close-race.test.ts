import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { tradeOfRecord } from '../../trading-helper.ts'
import { netMnq } from '../positions/exit-helper.ts'
import { closeTwo, exitsOf, openPairs, stopPriceHit } from './targets-helper.ts'

/**
 * A partial close racing the target pairs' own fills (docs/decisions/targets-breakeven.md, "A partial close
 * racing the pairs"; found by the order-path model with exit plans on, seeds -617256376, -1114788195 and
 * -1587473877). The race is made deterministic with the paper broker's answer delay: the close's read of the
 * position is answered late (its answer as it stood when asked), and the pairs' fills happen meanwhile.
 */

/** How many `position/list` requests the broker has seen (the close reads the position first). */
const positionReads = (broker: Awaited<ReturnType<typeof openPairs>>['broker']) => broker.requests.filter((request) => request.endpoint === 'position/list').length

t.test("TP1's fill applied while a partial close read the trades: the close cuts the pairs by what the broker holds, its stops never above the position", async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  // TP1 (pairs 1 and 2) fills at the broker; the keeper does not hear of it yet.
  broker.holdEvents(true)
  broker.setPrice('MNQZ6', '21025')
  t.equal(netMnq(broker), 3, 'TP1 filled: 3 held at the broker')
  // The close reads the trades (5, TP1 not applied) and the position; the position's answer comes late,
  // and meanwhile the keeper applies TP1's fills (the trade is 3 when the close looks at its pairs).
  broker.delay('position/list', 1_500)
  const before = positionReads(broker)
  await publishAlert(app, closeTwo())
  await eventually(() => positionReads(broker) > before)
  broker.holdEvents(false)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 3)
  await app.trading.keeper.idle()
  // The close's own fill is kept from the keeper: what the close left at the broker is what is judged.
  broker.holdEvents(true)
  broker.delay('position/list', 0)
  await eventually(() => netMnq(broker) === 1)
  t.equal(exitsOf(broker, record.id).stops, 1, 'the stops cover the 1 held, never more')
  t.equal(stopPriceHit(broker), 0, 'the stop price hit: flat, never short')
  broker.holdEvents(false)
})

t.test('the pair stops close the position at the broker while a partial close reads it: nothing more is sold', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  // The stops' fills are not applied while the close runs (as in the model: 20 ms between them).
  broker.holdEvents(true)
  broker.delay('position/list', 1_500)
  const before = positionReads(broker)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(() => positionReads(broker) > before)
  // The close has asked for the position (5); the stop price is hit before it hears the answer.
  t.equal(stopPriceHit(broker), 0, 'the pair stops closed the 5 held')
  broker.delay('position/list', 0)
  await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('alert_id', '=', exit.alertId).executeTakeFirst())?.done_at != null, 20_000)
  t.equal(netMnq(broker), 0, 'the close sold nothing: the account stays flat, never short')
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith('pc-') && order.filledQty > 0).length, 0, 'no close was filled')
  t.match((await db.selectFrom('flatten_requests').select('outcome').where('alert_id', '=', exit.alertId).executeTakeFirst())?.outcome, /nothing closed/, 'the request says why')
  broker.holdEvents(false)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
})
