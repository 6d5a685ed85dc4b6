import t from 'tap'
import { trailingStopOf } from '../../src/parsing/trailing-stop.ts'
import { extractFields } from '../../src/parsing/fields.ts'

const long = { side: 'LONG', entryPrice: 21000 } as const
const trail = (record: Record<string, unknown>, context: Parameters<typeof trailingStopOf>[1] = long) => trailingStopOf(extractFields(record), context)

t.test('ours: a distance in ticks or in price, a trigger, a step', async (t) => {
  t.equal(trail({ sl: 20950 }), null)
  t.same(trail({ trail_distance_ticks: 40 }), { distanceTicks: 40, distancePrice: null, triggerPrice: null, stepTicks: 1 })
  t.same(trail({ trail_distance: '10.5', trail_trigger_price: 21010, trail_step_ticks: 4 }), { distanceTicks: null, distancePrice: 10.5, triggerPrice: 21010, stepTicks: 4 })
})

t.test('refused rather than guessed', async (t) => {
  t.throws(() => trail({ trail_distance_ticks: 40, trail_distance: 10 }), /trail_distance_ticks or trail_distance, not both/)
  t.throws(() => trail({ trail_trigger_price: 21010 }), /needs its distance/)
  t.throws(() => trail({ trail_distance_ticks: 2.5 }), /trail_distance_ticks must be whole ticks/)
  t.throws(() => trail({ trail_distance: -1 }), /trail_distance must be a price distance above 0/)
  t.throws(() => trail({ trail_distance_ticks: 4, trail_step_ticks: 0 }), /trail_step_ticks must be whole ticks/)
  t.throws(() => trail({ trail_distance_ticks: 4, trail_trigger_price: 20990 }), /trail_trigger_price \(20990\) is not above the LONG entry price 21000/)
  t.throws(() => trail({ trail_distance_ticks: 4, trail_trigger_price: 21010 }, { side: 'SHORT', entryPrice: 21000 }), /not below the SHORT entry price/)
})

t.test('published on the entry, valid against the contract; PickMyTrade trail fields refused', async (t) => {
  const { parseAlert } = await import('../../src/parsing/parse-alert.ts')
  const { normalizeAlert } = await import('../../src/parsing/normalize.ts')
  const { contract, NormalizedAlertV1 } = await import('@signals/contracts')
  const normalize = (payload: Record<string, unknown>) =>
    normalizeAlert(parseAlert(JSON.stringify(payload)), {}, { premiumIndicators: new Set(), receivedAt: '2026-11-26T12:00:00.000Z', sourceText: JSON.stringify(payload) })
  const entry = normalize({ action: 'buy', ticker: 'MNQ1!', price: 21000, sl: 20950, trail_distance_ticks: 40, trail_trigger_price: 21005, trail_step_ticks: 8, user_id: 'u' })
  t.same(entry.trailingStop, { distanceTicks: 40, distancePrice: null, triggerPrice: 21005, stepTicks: 8 })
  t.equal(contract(NormalizedAlertV1).problem(entry), null)
  t.notOk('trailingStop' in normalize({ action: 'buy', ticker: 'MNQ1!', sl: 20950, user_id: 'u' }))
  t.throws(() => normalize({ data: 'buy', symbol: 'MNQ1!', sl: 20950, trail: 1, trail_stop: 10, user_id: 'u' }), /PickMyTrade's trailing stop .* is not supported: send sl with trail_distance_ticks/)
  t.throws(() => normalize({ data: 'buy', symbol: 'MNQ1!', sl: 20950, trail_trigger: 5, user_id: 'u' }), /PickMyTrade's trailing stop/)
})
