import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'
import { EXIT_PLANS_ON, exitsOf, ordersOf, stopPriceOf, withTargets } from './targets-helper.ts'

/**
 * A refused partial close's put-back (room-for-close.ts) sized and priced as the broker stands at the put-back,
 * not at the cut: its stop never covers more than the broker's position leaves without a stop (it was sized
 * from the quantity the database had applied: a lone stop filled at the broker, its fill not applied yet, was
 * taken for a stop gone, net -1 once the stop price was hit; 2 asserts failed before the fix), and it stands
 * at the trade's stop price as its stops stand then (it was the price read at the cut, older than a move to
 * breakeven; 1 assert failed before the fix).
 */

const closeOf = (quantity: number) => mnqExit({ closes: 'LONG', quantity, closePart: { quantity, percent: null, remaining: null } })

t.test('a refused partial close put back while a lone stop filled at the broker (fill not applied): never more stops than held', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => exitsOf(broker, record.id).targets === 5 && exitsOf(broker, record.id).stops === 5)
  await app.trading.keeper.idle()

  // Step A: a close of 2 refused: pairs 4-5 cut and gone, a lone stop `.sl` of 2 put back (pairs 1-3 + lone 2 = 5).
  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'Rejected A' }, 1)
  const first = closeOf(2)
  await publishAlert(app, first)
  await eventually(async () => /Rejected A/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', first.alertId).executeTakeFirst())?.reason ?? ''))
  // That request waits (as after a penalty) so it does not come back during step B.
  await sql`UPDATE flatten_requests SET next_attempt_at = now() + interval '1 hour' WHERE alert_id = ${first.alertId}`.execute(db)
  await eventually(() => ordersOf(broker, record.id).sl?.ordStatus === 'Working' && exitsOf(broker, record.id).stops === 5)
  t.equal(ordersOf(broker, record.id).sl?.orderQty, 2, 'step A left a lone stop of 2 beside pairs 1-3')
  await app.trading.keeper.idle()

  // Step B: a close of 1: the lone stop is cut to 1, the close is refused 2 s later. Meanwhile the market hits the
  // stop price: pairs 1-3 and the lone stop fill at the broker (net 1 left), their events held from the keeper.
  const placed = () => broker.requests.filter((request) => request.endpoint === 'order/placeorder').length
  const before = placed()
  broker.delay('order/placeorder', 2000)
  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'Rejected B' }, 1)
  const second = closeOf(1)
  await publishAlert(app, second)
  await eventually(() => placed() > before)
  broker.delay('order/placeorder', 0)
  t.equal(ordersOf(broker, record.id).sl?.orderQty, 1, 'the cut left the lone stop at 1')
  broker.holdEvents(true)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 1, 'the stops filled at the broker: 1 contract held')
  await eventually(async () => /Rejected B/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', second.alertId).executeTakeFirst())?.reason ?? ''))
  // The put-back is done when the trade says so (it runs in the flatten runner, after the refusal).
  await eventually(async () => (await tradeOfRecord(db, record.id))?.exit_note?.includes('Rejected B') === true || (await tradeOfRecord(db, record.id))?.exit_note?.includes('was not carried out') === true, 15_000).catch(() => undefined)
  t.comment(`exit note: ${(await tradeOfRecord(db, record.id))?.exit_note}`)
  t.comment(`orders: ${JSON.stringify(Object.entries(ordersOf(broker, record.id)).map(([leg, o]) => [leg, o.ordStatus, o.orderQty, o.filledQty]))}`)
  t.ok(netMnq(broker) >= 0, `after the put-back: never short (net ${netMnq(broker)}; 1 contract held, 2 cut)`)
  broker.setPrice('MNQZ6', '20930')
  t.ok(netMnq(broker) >= 0, `the stop price hit again: flat, never short (net ${netMnq(broker)})`)
  broker.holdEvents(false)
  await app.trading.keeper.idle()
})

t.test('a refused partial close put back after TP1 moved the stops to breakeven meanwhile: the stop put back is at breakeven, not the older price', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets({ offsetTicks: 2 })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => exitsOf(broker, record.id).targets === 5 && exitsOf(broker, record.id).stops === 5)
  await app.trading.keeper.idle()
  const placed = () => broker.requests.filter((request) => request.endpoint === 'order/placeorder').length
  const before = placed()
  // The close of 2 (pairs 4-5 cut) is refused 3 s after it is sent; meanwhile TP1 fills (pairs 1-2).
  broker.delay('order/placeorder', 3000)
  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'Rejected C' }, 1)
  const close = closeOf(2)
  await publishAlert(app, close)
  await eventually(() => placed() > before)
  broker.delay('order/placeorder', 0)
  broker.setPrice('MNQZ6', '21025')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '3.0000')
  await eventually(async () => (await stopPriceOf(app, ordersOf(broker, record.id).sl3!.id)) === '21000.5')
  t.pass('TP1 filled, the stop left (pair 3) moved to breakeven 21000.5')
  await eventually(async () => /Rejected C/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', close.alertId).executeTakeFirst())?.reason ?? ''))
  await eventually(() => ordersOf(broker, record.id).sl?.ordStatus === 'Working')
  const lone = ordersOf(broker, record.id).sl!
  t.equal(lone.orderQty, 2, 'a stop put back for the 2 cut')
  t.equal(await stopPriceOf(app, lone.id), '21000.5', `the stop put back is at breakeven as the trade's other stop (it is at ${await stopPriceOf(app, lone.id)})`)
})
