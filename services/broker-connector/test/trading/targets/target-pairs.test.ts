import t from 'tap'
import { sql } from '@signals/db'
import type { OrderInstruction } from '@signals/contracts'
import { eventually, makeAlert, publishAlert } from '../../helper.ts'
import { connectedTrader, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq } from '../positions/exit-helper.ts'
import { EXIT_PLANS_ON, connectorAway, connectorBack, exitsOf, marketAt, openWithTargets, ordersOf, stopPriceOf, withTargets } from './targets-helper.ts'

/**
 * Each target goes out with its own stop, linked at the broker (OCO), the whole-position stop shrunk first
 * (docs/decisions/targets-breakeven.md): the stops and the targets never close more than the position,
 * whether or not the connector is running.
 */

t.test('the targets go out as pairs of one contract with their own stops; the whole-position stop is shrunk first, to nothing when the pairs cover all', async (t) => {
  const { app, broker, db, record, entry } = await openWithTargets(t)
  const placed = ordersOf(broker, record.id)
  t.match(placed, { sl: { ordStatus: 'Canceled' } })
  for (const pair of [1, 2, 3, 4, 5]) t.match(placed, { [`tp${pair}`]: { orderQty: 1, action: 'Sell' }, [`sl${pair}`]: { orderQty: 1, action: 'Sell' } }, `pair ${pair}: one contract`)
  const prices = await app.feeds.session('u-0')!.orderVersions([1, 2, 3, 4, 5].map((pair) => placed[`tp${pair}`]!.id))
  t.same([1, 2, 3, 4, 5].map((pair) => prices.get(placed[`tp${pair}`]!.id)?.price), ['21020', '21020', '21040', '21040', '21080'], 'TP1 2, TP2 2, TP3 1')
  await eventually(async () => /targets placed: TP1 2 at 21020\.00, TP2 2 at 21040\.00, TP3 1 at 21080\.00/.test((await settledRecord(db, entry.alertId)).reason ?? ''))
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 5 }, 'stops and targets each the 5 held, never more')
  const stored = await sql<{ order_id: string; stop_order_id: string }>`SELECT order_id, stop_order_id FROM trade_targets WHERE record_id = ${record.id} ORDER BY level`.execute(db)
  t.same(stored.rows.map((row) => [Number(row.order_id), Number(row.stop_order_id)]), [1, 2, 3, 4, 5].map((pair) => [placed[`tp${pair}`]!.id, placed[`sl${pair}`]!.id]), 'each pair\'s ids stored')
})

t.test('(a) a target fills while the connector is away, then the stop price is hit: the account ends flat, never reversed', async (t) => {
  const { broker, app, db, record } = await openWithTargets(t)
  await connectorAway(app)
  broker.setPrice('MNQZ6', '21025')
  t.equal(netMnq(broker), 3, 'TP1 took 2')
  t.match(ordersOf(broker, record.id), { sl1: { ordStatus: 'Canceled' }, sl2: { ordStatus: 'Canceled' } }, 'its stops went with it, at the broker')
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stops left closed the 3 held: flat, not short')
  await connectorBack(app)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0)
})

t.test('(b) the stop is hit before the connector cancels the targets: no target later opens a position', async (t) => {
  const { broker, app, db, record } = await openWithTargets(t)
  await connectorAway(app)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stops closed the 5')
  t.ok(['tp1', 'tp2', 'tp3', 'tp4', 'tp5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'), 'each stop done cancelled its target at the broker')
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0, 'no target opened a short')
  await connectorBack(app)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'SL' })
})

t.test('(c) breakeven after TP1 moves every stop of the trade', async (t) => {
  const { broker, app, db, record, entry } = await openWithTargets(t, withTargets({ offsetTicks: 2 }))
  broker.setPrice('MNQZ6', '21025')
  await eventually(() => netMnq(broker) === 3)
  const placed = ordersOf(broker, record.id)
  await eventually(async () => (await Promise.all(['sl3', 'sl4', 'sl5'].map((leg) => stopPriceOf(app, placed[leg]!.id)))).every((price) => price === '21000.5'))
  t.pass('TP2\'s and TP3\'s stops at the entry plus 2 ticks')
  await eventually(async () => /stop moved to breakeven 21000\.50 after TP1/.test((await settledRecord(db, entry.alertId)).reason ?? ''))
  t.same(exitsOf(broker, record.id), { stops: 3, targets: 3 })
  broker.setPrice('MNQZ6', '21000.5')
  t.equal(netMnq(broker), 0, 'back to breakeven: flat')
})

t.test('(c) the trailing stop moves every stop of the trade', async (t) => {
  // Only the test's own pass moves the trail (the timer's pass, every second, would leave it nothing to move).
  const trailing = withTargets(null, { distanceTicks: 40, distancePrice: null, triggerPrice: null, stepTicks: 1 })
  const { broker, app, record } = await openWithTargets(t, trailing, { TRAILING_STOP_CHECK_MS: '600000' })
  const moved = await marketAt(broker, app, '21010')
  t.same(moved.map((move) => move.stopPrice), ['21000.00'])
  const placed = ordersOf(broker, record.id)
  for (const leg of ['sl1', 'sl2', 'sl3', 'sl4', 'sl5']) t.equal(await stopPriceOf(app, placed[leg]!.id), '21000', `${leg} trails`)
  broker.setPrice('MNQZ6', '20999')
  t.equal(netMnq(broker), 0, 'the trailed stops closed the 5, no more')
})

t.test('(d) a modify alert\'s new stop moves every stop of the trade', async (t) => {
  const { broker, app, db, record } = await openWithTargets(t)
  const instruction: OrderInstruction = { kind: 'modify', sl: 20975, tp: null }
  const modify = makeAlert({ symbol: 'MNQ1!', root: 'MNQ', action: null, entryPrice: null, sl: null, tp: null, userId: 'u-0', instruction, raw: { action: 'modify' } })
  await publishAlert(app, modify)
  t.match(await settledRecord(db, modify.alertId), { status: 'placed', reason: /stop 1 of 5 of trade \d+ moved to 20975\.00, stop 2 of 5 .*stop 5 of 5/ })
  const placed = ordersOf(broker, record.id)
  for (const leg of ['sl1', 'sl2', 'sl3', 'sl4', 'sl5']) t.equal(await stopPriceOf(app, placed[leg]!.id), '20975', `${leg} moved`)
})

t.test('(e) a partial close with pairs working cuts the farthest pair first; the exits never total more than the position', async (t) => {
  const { broker, app, db, record } = await openWithTargets(t)
  const exit = mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })
  await publishAlert(app, exit)
  await eventually(() => netMnq(broker) === 3)
  const exits = exitsOf(broker, record.id)
  t.ok(exits.stops <= 3 && exits.targets <= 3, `exits within the 3 held (${JSON.stringify(exits)})`)
  t.match(ordersOf(broker, record.id), { tp5: { ordStatus: 'Canceled' }, sl5: { ordStatus: 'Canceled' }, tp4: { ordStatus: 'Canceled' }, sl4: { ordStatus: 'Canceled' }, tp3: { ordStatus: 'Working' }, sl3: { ordStatus: 'Working' } }, 'TP3\'s pair and one of TP2\'s cancelled, both legs')
  await app.trading.keeper.idle()
  t.same(exitsOf(broker, record.id), { stops: 3, targets: 3 })
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stops close the 3 held, never more')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
})

t.test('a pair the broker refuses grows the whole-position stop back; the record says why', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  broker.interfere('order/placeOCO', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => ordersOf(broker, record.id).tp5?.ordStatus === 'Working')
  await eventually(async () => /TP1 \(pair 1, contract 1 of 2\) was not placed/.test((await settledRecord(db, entry.alertId)).reason ?? ''))
  t.match((await settledRecord(db, entry.alertId)).reason, /TP1 \(pair 1, contract 1 of 2\) was not placed: .*the trade's stop was grown back to cover them/)
  t.match(ordersOf(broker, record.id), { sl: { ordStatus: 'Working', orderQty: 1 }, tp2: { orderQty: 1 }, sl2: { orderQty: 1 }, tp5: { orderQty: 1 }, sl5: { orderQty: 1 } })
  t.notOk(ordersOf(broker, record.id).tp1, 'the refused pair is not at the broker')
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 4 })
})

t.test('the last pair refused after the whole-position stop was cancelled: a lone stop covers its contracts; every contract has a stop', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  broker.interfere('order/placeOCO', { kind: 'pass' }, 4)
  broker.interfere('order/placeOCO', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => /TP3 \(pair 5, contract 1 of 1\) was not placed/.test((await settledRecord(db, entry.alertId)).reason ?? ''))
  await eventually(() => netMnq(broker) === 5)
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 4 }, 'a working stop for every contract held, never more')
  const lone = broker.orders().filter((order) => order.clOrdId === `sig-${record.id}.sl` && order.ordStatus === 'Working')
  t.match(lone, [{ orderQty: 1, action: 'Sell' }], 'one lone stop for TP3\'s contract')
  t.equal(await stopPriceOf(app, lone[0]!.id), '20950', 'at the trade\'s stop price')
  t.equal(Number((await tradeOfRecord(db, record.id))?.stop_order_id), lone[0]!.id, 'stored as the trade\'s stop')
  t.match((await settledRecord(db, entry.alertId)).reason, /TP3 \(pair 5, contract 1 of 1\) was not placed: .*a stop for 1 contract\(s\) was placed in its place/)
  t.notMatch((await settledRecord(db, entry.alertId)).reason, /NO stop/)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stops close the 5 held, never more')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.equal(exitsOf(broker, record.id).targets, 0, 'closed in full: no target left to open a position')
})
