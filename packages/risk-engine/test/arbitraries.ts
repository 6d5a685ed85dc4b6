import fc from 'fast-check'
import { CONTRACTS, computePnl, multiply, parseDecimal, toFixed } from '@signals/instruments'
import { RISK_MODES, TRAILING_MODES, DEFAULT_RISK_ENGINE_CONFIG, crossFieldProblem, type RiskEngineConfig, type SizingInput } from '../src/index.ts'

/** Inputs for the sizing properties: any consistent configuration, account, alert, market and caps. */

const cents = (value: number) => (value / 100).toFixed(2)

const limitsArbitrary = fc.record({
  riskPercentHundredths: fc.integer({ min: 1, max: 1_000 }),
  maxOpenTrades: fc.integer({ min: 1, max: 50 }),
  bufferPercent: fc.integer({ min: 0, max: 50 }),
  maxContractsPerOrder: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 100 })),
  minStopTicks: fc.oneof({ arbitrary: fc.constant(1), weight: 2 }, { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 1 }),
  maxEntryDistanceTicks: fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 100_000 })),
  marginTenths: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 1_000 })),
})

export const configArbitrary: fc.Arbitrary<RiskEngineConfig> = fc
  .record({
    start: fc.integer({ min: 1_000, max: 300_000 }),
    trailingShare: fc.integer({ min: 1, max: 99 }),
    dailyShare: fc.integer({ min: 1, max: 100 }),
    dailyEnabled: fc.boolean(),
    dailyType: fc.constantFrom('hard' as const, 'soft' as const),
    trailingMode: fc.constantFrom(...TRAILING_MODES),
    lockAbove: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: null }),
    limits: limitsArbitrary,
    mode: fc.constantFrom(...RISK_MODES),
    fixedContracts: fc.integer({ min: 1, max: 100 }),
    base: fc.integer({ min: 1, max: 10 }),
    extra: fc.integer({ min: 0, max: 20 }),
    steps: fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 10 })),
    phase: fc.constantFrom('evaluation' as const, 'funded' as const),
    profitTarget: fc.integer({ min: 0, max: 10_000 }),
    minTradingDays: fc.integer({ min: 0, max: 10 }),
    consistency: fc.boolean(),
  })
  .map((r) => {
    const amount = Math.max(100, Math.floor((r.start * r.trailingShare) / 100))
    const trailingAmount = Math.min(amount, r.start - 1)
    const { limits } = r
    return {
      account: { startingBalance: r.start },
      trailingDrawdown: { amount: trailingAmount, mode: r.trailingMode, stopTrailingAtBalance: r.lockAbove === null ? null : r.start - trailingAmount + r.lockAbove },
      dailyLossLimit: { enabled: r.dailyEnabled, amount: Math.max(50, Math.floor((trailingAmount * r.dailyShare) / 100)), type: r.dailyType },
      limits: {
        maxRiskPerTradePercent: limits.riskPercentHundredths / 100,
        maxOpenTrades: limits.maxOpenTrades,
        safetyBufferPercent: limits.bufferPercent,
        maxContractsPerOrder: limits.maxContractsPerOrder,
        minStopTicks: limits.minStopTicks,
        maxEntryDistanceTicks: limits.maxEntryDistanceTicks,
        marginPercent: limits.marginTenths / 10,
      },
      riskMode: { mode: r.mode, fixedContracts: r.fixedContracts },
      consistencyRule: { enabled: r.consistency, maxBestDayPercent: 30 },
      payoutSecurity: { enabled: false, minBalanceAboveStart: 2_100 },
      verification: { phase: r.phase, profitTarget: r.profitTarget, minTradingDays: r.minTradingDays },
      antiMartingale: { baseContracts: r.base, maxContracts: r.base + r.extra, winsToStepUp: r.steps[0], lossesToStepDown: r.steps[1], stepContracts: r.steps[2], pyramidLevels: r.steps[3] },
      sessionRules: DEFAULT_RISK_ENGINE_CONFIG.sessionRules,
      positionChanges: DEFAULT_RISK_ENGINE_CONFIG.positionChanges,
      entryOrders: DEFAULT_RISK_ENGINE_CONFIG.entryOrders,
    }
  })
  .filter((config) => config.dailyLossLimit.amount <= config.trailingDrawdown.amount && crossFieldProblem(config) === null)

/** Where the market is, in ticks from the alert's entry: there, near it, far from it, or no usable price. */
const marketOffset = fc.option(
  fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.integer({ min: -60, max: 60 }), weight: 2 }, { arbitrary: fc.integer({ min: -5_000, max: 5_000 }), weight: 1 }),
  { nil: null, freq: 10 },
)

export const inputArbitrary: fc.Arbitrary<SizingInput> = fc
  .record({
    config: configArbitrary,
    contract: fc.constantFrom(...CONTRACTS),
    balanceOffsetCents: fc.integer({ min: -300_000, max: 1_000_000 }),
    peakAboveCents: fc.integer({ min: 0, max: 500_000 }),
    todayCents: fc.integer({ min: -200_000, max: 200_000 }),
    openCents: fc.integer({ min: -100_000, max: 100_000 }),
    results: fc.array(fc.constantFrom('W', 'L'), { maxLength: 30 }).map((run) => run.join('')),
    openCount: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
    openQuantity: fc.integer({ min: 1, max: 20 }),
    sameContractOpen: fc.boolean(),
    tradingDays: fc.integer({ min: 0, max: 12 }),
    side: fc.constantFrom('LONG' as const, 'SHORT' as const),
    limitOrder: fc.boolean(),
    entryTicks: fc.integer({ min: 1, max: 2_000_000 }),
    stopTicks: fc.option(fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: -20, max: 4_000 })), { nil: null }),
    targetTicks: fc.option(fc.integer({ min: -20, max: 4_000 }), { nil: null }),
    quantity: fc.option(fc.integer({ min: -2, max: 200 }), { nil: null }),
    marketTicks: marketOffset,
    platformMaxContracts: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 1_000 })),
    maxContracts: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }),
  })
  .map((r) => {
    const tick = parseDecimal(r.contract.tickSize)
    const price = (ticks: number) => toFixed(multiply({ units: BigInt(ticks), scale: 0 }, tick), tick.scale)
    const direction = r.side === 'LONG' ? 1 : -1
    const balanceCents = r.config.account.startingBalance * 100 + r.balanceOffsetCents
    const peakCents = Math.max(r.config.account.startingBalance * 100, balanceCents) + r.peakAboveCents
    const openRoot = (index: number) => (index === 0 && r.sameContractOpen ? r.contract.root : (CONTRACTS[(index * 5) % CONTRACTS.length]?.root ?? 'ES'))
    return {
      config: r.config,
      contract: { root: r.contract.root, pointValue: r.contract.pointValue, tickSize: r.contract.tickSize },
      account: {
        balance: cents(balanceCents),
        peakBalance: cents(peakCents),
        todayRealizedPnl: cents(r.todayCents),
        openPnl: cents(r.openCents),
        openTrades: Array.from({ length: r.openCount }, (_, index) => ({ root: openRoot(index), side: r.side, quantity: r.openQuantity, entryPrice: price(r.entryTicks), openPnl: cents(r.openCents) })),
        closedResults: r.results,
        haltedForSession: false,
        dailyPnl: [],
        tradingDays: r.tradingDays,
      },
      alert: {
        side: r.side,
        orderType: r.limitOrder ? ('limit' as const) : ('market' as const),
        entryPrice: price(r.entryTicks),
        stopPrice: r.stopTicks === null ? null : price(r.entryTicks - direction * r.stopTicks),
        targetPrice: r.targetTicks === null ? null : price(r.entryTicks + direction * r.targetTicks),
        quantity: r.quantity,
      },
      market: r.marketTicks === null || r.entryTicks + r.marketTicks < 1 ? { price: null, reason: 'no quote in this case' } : { price: price(r.entryTicks + r.marketTicks) },
      caps: { platformMaxContracts: r.platformMaxContracts, maxContracts: r.maxContracts },
    }
  })

export const atMost = (a: string, b: string) => {
  const [x, y] = [parseDecimal(a), parseDecimal(b)]
  const scale = Math.max(x.scale, y.scale)
  return x.units * 10n ** BigInt(scale - x.scale) <= y.units * 10n ** BigInt(scale - y.scale)
}

/** The price the order fills at: a limit at its limit, a market entry at the broker's price. */
export function fillPriceOf(input: SizingInput): string {
  if (input.alert.orderType === 'limit' && input.alert.entryPrice !== null) return input.alert.entryPrice
  if (input.market.price === null) throw new Error('a sized market entry without a market price')
  return input.market.price
}

/** The loss of the sized order if its stop fills, measured from its fill price, computed apart from the engine (computePnl). */
export function lossAtStop(input: SizingInput, quantity: number): string {
  const pnl = computePnl({ side: input.alert.side, entryPrice: fillPriceOf(input), exitPrice: input.alert.stopPrice as string, quantity, pointValue: input.contract.pointValue })
  return pnl.startsWith('-') ? pnl.slice(1) : `-${pnl}`
}
