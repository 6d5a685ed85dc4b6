import t from 'tap'
import fc from 'fast-check'
import { DEFAULT_RISK_ENGINE_CONFIG, RISK_MODES } from '@signals/risk-engine'
import type { BrokerContract } from '../../../src/feeds/broker/broker-adapter.ts'
import { sizeOrder, SizingMemo, type SizingDeps } from '../../../src/trading/entry/size-order.ts'
import type { EntryRecord } from '../../../src/repositories/entry-records.ts'
import { openSession, paperBroker, until } from '../../feeds/broker/tradovate/helper.ts'

/**
 * `sizeOrder` over a real session (the Tradovate adapter against the paper broker, its market-data socket
 * included), for any configuration, caps, alert and market: the bracket's quantity never exceeds a cap,
 * and its loss at the stop, measured from where it fills (the broker's price for a market entry, the limit
 * for a limit), never exceeds the risk limits of the fresh 50,000 account: the per-trade budget in the
 * risk-sized modes, the daily loss limit (1,000) and the room above the drawdown floor (2,000) in all.
 */
const TICK = 0.25
const POINT_VALUE = 2
const BALANCE = 50_000

const caseArbitrary = fc.record({
  side: fc.constantFrom('LONG' as const, 'SHORT' as const),
  entryTicks: fc.integer({ min: 83_600, max: 84_400 }),
  stopTicks: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 600 })),
  targetTicks: fc.integer({ min: 1, max: 800 }),
  marketTicks: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.integer({ min: -80, max: 80 }), weight: 3 }),
  limit: fc.boolean(),
  mode: fc.constantFrom(...RISK_MODES),
  fixedContracts: fc.integer({ min: 1, max: 100 }),
  alertQuantity: fc.integer({ min: 1, max: 500 }),
  riskPercent: fc.integer({ min: 1, max: 1_000 }).map((hundredths) => hundredths / 100),
  maxContractsPerOrder: fc.integer({ min: 1, max: 100 }),
  minStopTicks: fc.integer({ min: 1, max: 8 }),
  maxEntryDistanceTicks: fc.integer({ min: 1, max: 200 }),
  marginPercent: fc.integer({ min: 1, max: 200 }).map((tenths) => tenths / 10),
  platformMaxContracts: fc.integer({ min: 1, max: 100 }),
  maxContracts: fc.option(fc.integer({ min: 1, max: 60 }), { nil: null }),
})
type Case = typeof caseArbitrary extends fc.Arbitrary<infer C> ? C : never

const price = (ticks: number) => (ticks * TICK).toFixed(2)

function recordOf(c: Case, id: number): EntryRecord & { action: 'LONG' | 'SHORT'; symbol: string } {
  const direction = c.side === 'LONG' ? 1 : -1
  const limits = { ...DEFAULT_RISK_ENGINE_CONFIG.limits, maxRiskPerTradePercent: c.riskPercent, maxContractsPerOrder: c.maxContractsPerOrder, minStopTicks: c.minStopTicks, maxEntryDistanceTicks: c.maxEntryDistanceTicks, marginPercent: c.marginPercent }
  return {
    id, user_id: 'u-prop', alert_id: `a-${id}`, status: 'received', symbol: 'MNQ1!', root: 'MNQ', action: c.side,
    entry_price: price(c.entryTicks), sl: price(c.entryTicks - direction * c.stopTicks), tp: price(c.entryTicks + direction * c.targetTicks),
    alert_quantity: String(c.alertQuantity), order_word: null, raw_data: c.limit ? { orderType: 'limit' } : {}, received_at: new Date(), send_attempts: 0,
    order_tag: null, order_quantity: null, contract: null, refusal_code: null, age_ms: 0, sent_age_ms: null, read_at: new Date(), live_trading: { enabled: true, autoPlaceOrders: true },
    risk_config: { ...DEFAULT_RISK_ENGINE_CONFIG, limits, riskMode: { mode: c.mode, fixedContracts: c.fixedContracts } }, max_contracts: c.maxContracts,
  }
}

function capsOf(c: Case): number {
  const caps = [c.maxContractsPerOrder, c.platformMaxContracts, c.maxContracts ?? Infinity]
  if (c.mode === 'fixed_contracts') caps.push(c.fixedContracts)
  if (c.mode === 'alert_quantity') caps.push(c.fixedContracts, c.alertQuantity)
  if (c.mode === 'anti_martingale_pyramiding') caps.push(DEFAULT_RISK_ENGINE_CONFIG.antiMartingale.maxContracts)
  return Math.min(...caps)
}

t.test('sizeOrder over the paper broker: no bracket above a cap, no loss at the stop above the limits, measured from the fill', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker, { firstQuoteWaitMs: 2_000 })
  const contract: BrokerContract = await session.findContract('MNQZ6')
  const deps = (c: Case): SizingDeps => ({
    accounts: { openTrades: new Map(), closedDays: new Map(), lastHalt: new Map(), heldContracts: new Map(), equityPeak: new Map(), session: { at: new Date(), news: [], counts: new Map() } },
    memo: new SizingMemo(),
    session,
    cashBalance: String(BALANCE),
    now: new Date(),
    platformMaxContracts: c.platformMaxContracts,
    marketPriceMaxAgeMs: 60_000,
  })
  const outcomes = new Map<string, number>()
  let id = 0
  await fc.assert(
    fc.asyncProperty(caseArbitrary, async (c) => {
      const market = price(c.entryTicks + c.marketTicks)
      broker.setPrice('MNQZ6', market)
      await until(async () => {
        const quoted = await session.marketPrice(contract, 'Buy')
        return quoted.kind === 'price' && Number(quoted.price) === Number(market)
      })
      const record = recordOf(c, ++id)
      const sized = await sizeOrder(deps(c), record)
      const outcome = sized.kind === 'refuse' ? sized.code : sized.kind
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      if (sized.kind === 'close_first') throw new Error('no position is open here: nothing to reverse')
      if (sized.kind === 'refuse') return true
      const { request } = sized
      const fill = request.entryType === 'Limit' ? Number(request.entryPrice) : Number(market)
      const direction = c.side === 'LONG' ? 1 : -1
      const lossPerContract = (fill - Number(request.stopPrice)) * direction * POINT_VALUE
      const loss = lossPerContract * request.quantity
      const budget = c.mode === 'fixed_fraction' || c.mode === 'alert_quantity' ? (BALANCE * c.riskPercent) / 100 : Infinity
      const margin = (fill * POINT_VALUE * c.marginPercent) / 100
      return (
        Number.isInteger(request.quantity) && request.quantity >= 1 && request.quantity <= capsOf(c) &&
        lossPerContract > 0 && loss <= budget + 1e-6 && loss <= 1_000 + 1e-6 &&
        margin * request.quantity <= BALANCE + 1e-6
      )
    }),
    { numRuns: 150 },
  )
  t.ok((outcomes.get('order') ?? 0) > 40, `brackets and refusals met: ${JSON.stringify(Object.fromEntries(outcomes))}`)
})
