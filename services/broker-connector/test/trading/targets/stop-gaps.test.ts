import t from 'tap'
import { sql } from '@signals/db'
import { eventually } from '../../helper.ts'
import { connectedTrader, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { EXIT_PLANS_ON, exitsOf, lastPairLost, ordersOf, placedWithPairs, stopPriceHit, stopPriceOf, stopsAfterPass } from './targets-helper.ts'

/**
 * The stops of a trade with target pairs are checked against what the broker holds, and a gap is covered
 * (docs/decisions/targets-breakeven.md, "Stops that do not add up"): the stop 30 review's open MED finding.
 * Each of the first three failed on the code before the check (stops 4 for the 5 held).
 */

t.test('the shrink of the whole-position stop answered 503 but carried out, its pair not sent: a stop covers the pair\'s contract', async (t) => {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, app, db } = connected
  // The first pair's shrink (5 to 4) is carried out, its answer lost: the pair is not sent.
  broker.interfere('order/modifyorder', { kind: 'server_error', carriedOut: true }, 1)
  const { entry, record } = await placedWithPairs(connected)
  t.match((await settledRecord(db, entry.alertId)).reason, /TP1 \(pair 1, contract 1 of 2\) was not placed/)
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 4 }, 'every contract held has a stop, never more')
  const lone = broker.orders().filter((order) => order.clOrdId === `sig-${record.id}.sl` && order.ordStatus === 'Working')
  t.equal(lone.length, 1, 'one stop at the trade\'s stop price takes the gap')
  t.equal(await stopPriceOf(app, lone[0]!.id), '20950')
  t.match((await tradeOfRecord(db, record.id))?.exit_note, /a stop for 1 contract\(s\) was placed at 20950/)
  t.equal(stopPriceHit(broker), 0, 'the stop price hit: flat, never short')
})

t.test('the last pair\'s answer lost and the pair never placed: a stop covers its contract', async (t) => {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, db } = connected
  broker.interfere('order/placeOCO', { kind: 'pass' }, 4)
  broker.interfere('order/placeOCO', { kind: 'server_error' }, 1)
  const { entry, record } = await placedWithPairs(connected)
  t.match((await settledRecord(db, entry.alertId)).reason, /TP3 \(pair 5, contract 1 of 1\) was not placed: outcome unknown/)
  // An unknown outcome may still be carried out by the broker (pair-outcome-unknown.test.ts): its contract
  // waits the grace a pair on its way is given, then the next pass covers it.
  t.same(exitsOf(broker, record.id), { stops: 4, targets: 4 }, 'while the pair may still land: no stop beside it')
  await sql`UPDATE trade_targets SET sent_at = now() - interval '5 minutes' WHERE record_id = ${record.id} AND level = 5`.execute(db)
  t.equal(await stopsAfterPass(connected, record.id), 5, 'past the grace, the next pass covers the contract')
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 4 }, 'every contract held has a stop, never more')
  t.equal(stopPriceHit(broker), 0, 'the stop price hit: flat, never short')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
})

t.test('the last pair\'s answer lost but the pair placed: no stop is added, the stops never close more than is held', async (t) => {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, app } = connected
  broker.interfere('order/placeOCO', { kind: 'pass' }, 4)
  broker.interfere('order/placeOCO', { kind: 'server_error', carriedOut: true }, 1)
  const { record } = await placedWithPairs(connected)
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 5 }, 'the pair found working: nothing added')
  t.notOk(ordersOf(broker, record.id).sl?.ordStatus === 'Working', 'no whole-position stop beside the five pairs')
  await app.trading.reconciler.reconcileAll()
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 5 }, 'a reconciliation pass adds nothing either')
})

t.test('a claim left unsettled (a crash between the cancel and the send): the pass leaves it while it may be in flight, then covers it', async (t) => {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, db } = connected
  const { record } = await placedWithPairs(connected)
  t.same(exitsOf(broker, record.id), { stops: 5, targets: 5 })
  // What a crash leaves: the last pair claimed, its answer never stored, nothing of it at the broker (the
  // whole-position stop was cancelled for it). Made here by cancelling the pair and forgetting its answer.
  await lastPairLost(connected, record.id, '0 minutes')
  t.equal(await stopsAfterPass(connected, record.id), 4, 'claimed a moment ago: it may be on its way, nothing is placed')
  await sql`UPDATE trade_targets SET sent_at = now() - interval '5 minutes' WHERE record_id = ${record.id} AND level = 5`.execute(db)
  t.equal(await stopsAfterPass(connected, record.id), 5, 'the next pass covers the contract')
  t.equal(await stopsAfterPass(connected, record.id), 5, 'and a second pass places nothing more')
  t.equal(stopPriceHit(broker), 0, 'the stop price hit: flat, never short')
})
