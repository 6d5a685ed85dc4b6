import t from 'tap'
import { eventually } from '../../helper.ts'
import { connectedTrader, settledRecord } from '../../trading-helper.ts'
import { EXIT_PLANS_ON, exitsOf, ordersOf, placedWithPairs, stopPriceHit } from './targets-helper.ts'

/**
 * A target pair whose send ended with an unknown outcome (no answer before the client's timeout) that the broker
 * carries out afterwards (stop 37's review): its contract's stop was shrunk away before the send, so the stops
 * looked short by one. A stop added for that contract meanwhile (the stops check after the pairs, or a partial
 * close's balance) sits beside the pair's own stop once the pair lands: the stops close more than is held.
 * The send is held at the paper broker (`late`: carried out when released, after the client gave up on it).
 */

t.test('a pair whose send timed out and which the broker carries out later: no stop is added beside it, the stops never close more than is held', async (t) => {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, db } = connected
  broker.interfere('order/placeOCO', { kind: 'late' }, 1)
  const { entry, record } = await placedWithPairs(connected)
  t.match((await settledRecord(db, entry.alertId)).reason, /pair 1, contract 1 of 2\) was not placed: outcome unknown/)
  // The broker carries the pair out now, as a request queued at the broker and answered after the client's timeout.
  t.equal(broker.release('order/placeOCO'), 1)
  await eventually(() => ordersOf(broker, record.id).sl1?.ordStatus === 'Working')
  await connected.app.trading.keeper.idle()
  t.ok(exitsOf(broker, record.id).stops <= 5, `stops ${exitsOf(broker, record.id).stops} for the 5 held, never more`)
  t.equal(stopPriceHit(broker), 0, 'the stop price hit: flat, never short')
})

t.test('a pair whose send timed out and which the broker never carries out: its contract gets a stop once the grace is over', async (t) => {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, db } = connected
  // Answered 503, not carried out: the outcome is unknown to the connector.
  broker.interfere('order/placeOCO', { kind: 'server_error' }, 1)
  const { entry, record } = await placedWithPairs(connected)
  t.match((await settledRecord(db, entry.alertId)).reason, /pair 1, contract 1 of 2\) was not placed: outcome unknown/)
  t.equal(exitsOf(broker, record.id).stops, 4, 'while the pair may still land: no stop beside it')
  // Past the grace (30 s from the claim), without waiting for a reconciliation's pass.
  await eventually(() => exitsOf(broker, record.id).stops === 5, 45_000)
  t.equal(exitsOf(broker, record.id).stops, 5, 'every contract held has a stop, never more')
  t.equal(stopPriceHit(broker), 0, 'the stop price hit: flat, never short')
})
