import t from 'tap'
import fc from 'fast-check'
import { add, CONTRACTS, computePnl, multiply, parseDecimal, subtract, toFixed } from '@signals/instruments'
import { RISK_MODES, TRAILING_MODES, crossFieldProblem, drawdownFloor, sizeEntry, type RiskEngineConfig, type SizingInput } from '../src/index.ts'

const cents = (value: number) => (value / 100).toFixed(2)

const configArbitrary: fc.Arbitrary<RiskEngineConfig> = fc
  .record({
    start: fc.integer({ min: 1_000, max: 300_000 }),
    trailingShare: fc.integer({ min: 1, max: 99 }),
    dailyShare: fc.integer({ min: 1, max: 100 }),
    dailyEnabled: fc.boolean(),
    dailyType: fc.constantFrom('hard' as const, 'soft' as const),
    trailingMode: fc.constantFrom(...TRAILING_MODES),
    lockAbove: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: null }),
    riskPercentHundredths: fc.integer({ min: 1, max: 1_000 }),
    maxOpenTrades: fc.integer({ min: 1, max: 50 }),
    bufferPercent: fc.integer({ min: 0, max: 50 }),
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
    return {
      account: { startingBalance: r.start },
      trailingDrawdown: { amount: trailingAmount, mode: r.trailingMode, stopTrailingAtBalance: r.lockAbove === null ? null : r.start - trailingAmount + r.lockAbove },
      dailyLossLimit: { enabled: r.dailyEnabled, amount: Math.max(50, Math.floor((trailingAmount * r.dailyShare) / 100)), type: r.dailyType },
      limits: { maxRiskPerTradePercent: r.riskPercentHundredths / 100, maxOpenTrades: r.maxOpenTrades, safetyBufferPercent: r.bufferPercent },
      riskMode: { mode: r.mode, fixedContracts: r.fixedContracts },
      consistencyRule: { enabled: r.consistency, maxBestDayPercent: 30 },
      payoutSecurity: { enabled: false, minBalanceAboveStart: 2_100 },
      verification: { phase: r.phase, profitTarget: r.profitTarget, minTradingDays: r.minTradingDays },
      antiMartingale: { baseContracts: r.base, maxContracts: r.base + r.extra, winsToStepUp: r.steps[0], lossesToStepDown: r.steps[1], stepContracts: r.steps[2], pyramidLevels: r.steps[3] },
    }
  })
  .filter((config) => config.dailyLossLimit.amount <= config.trailingDrawdown.amount && crossFieldProblem(config) === null)

const inputArbitrary: fc.Arbitrary<SizingInput> = fc
  .record({
    config: configArbitrary,
    contract: fc.constantFrom(...CONTRACTS),
    balanceOffsetCents: fc.integer({ min: -300_000, max: 1_000_000 }),
    peakAboveCents: fc.integer({ min: 0, max: 500_000 }),
    todayCents: fc.integer({ min: -200_000, max: 200_000 }),
    openCents: fc.integer({ min: -100_000, max: 100_000 }),
    results: fc.array(fc.constantFrom('W', 'L'), { maxLength: 30 }).map((run) => run.join('')),
    openCount: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
    sameContractOpen: fc.boolean(),
    tradingDays: fc.integer({ min: 0, max: 12 }),
    side: fc.constantFrom('LONG' as const, 'SHORT' as const),
    entryTicks: fc.integer({ min: 1, max: 2_000_000 }),
    stopTicks: fc.option(fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: -20, max: 4_000 })), { nil: null }),
    targetTicks: fc.option(fc.integer({ min: -20, max: 4_000 }), { nil: null }),
    quantity: fc.option(fc.integer({ min: -2, max: 200 }), { nil: null }),
  })
  .map((r) => {
    const tick = parseDecimal(r.contract.tickSize)
    const price = (ticks: number) => toFixed(multiply({ units: BigInt(ticks), scale: 0 }, tick), tick.scale)
    const direction = r.side === 'LONG' ? 1 : -1
    const balanceCents = r.config.account.startingBalance * 100 + r.balanceOffsetCents
    const peakCents = Math.max(r.config.account.startingBalance * 100, balanceCents) + r.peakAboveCents
    return {
      config: r.config,
      contract: { root: r.contract.root, pointValue: r.contract.pointValue, tickSize: r.contract.tickSize },
      account: {
        balance: cents(balanceCents),
        peakBalance: cents(peakCents),
        todayRealizedPnl: cents(r.todayCents),
        openPnl: cents(r.openCents),
        openTrades: Array.from({ length: r.openCount }, (_, index) => ({ root: index === 0 && r.sameContractOpen ? r.contract.root : `X${index}`, side: r.side, quantity: 1, entryPrice: '1', openPnl: cents(r.openCents) })),
        closedResults: r.results,
        haltedForSession: false,
        dailyPnl: [],
        tradingDays: r.tradingDays,
      },
      alert: {
        side: r.side,
        entryPrice: price(r.entryTicks),
        stopPrice: r.stopTicks === null ? null : price(r.entryTicks - direction * r.stopTicks),
        targetPrice: r.targetTicks === null ? null : price(r.entryTicks + direction * r.targetTicks),
        quantity: r.quantity,
      },
    }
  })

const atMost = (a: string, b: string) => {
  const [x, y] = [parseDecimal(a), parseDecimal(b)]
  const scale = Math.max(x.scale, y.scale)
  return x.units * 10n ** BigInt(scale - x.scale) <= y.units * 10n ** BigInt(scale - y.scale)
}

/** The loss of the sized order if its stop fills, computed apart from the engine (computePnl). */
function lossAtStop(input: SizingInput, quantity: number): string {
  const pnl = computePnl({ side: input.alert.side, entryPrice: input.alert.entryPrice as string, exitPrice: input.alert.stopPrice as string, quantity, pointValue: input.contract.pointValue })
  return pnl.startsWith('-') ? pnl.slice(1) : `-${pnl}`
}

const RUNS = { numRuns: 3_000 }

t.test('a sized order is a whole number of contracts, at least one', async (t) => {
  fc.assert(
    fc.property(inputArbitrary, (input) => {
      const decision = sizeEntry(input)
      return decision.kind === 'refuse' || (Number.isInteger(decision.quantity) && decision.quantity >= 1)
    }),
    RUNS,
  )
  t.pass('no fractional, zero or negative quantity in 3000 inputs')
})

t.test("a sized order's loss at its stop never exceeds its budget, nor the room above the drawdown floor", async (t) => {
  let sizedWithBudget = 0
  fc.assert(
    fc.property(inputArbitrary, (input) => {
      const decision = sizeEntry(input)
      if (decision.kind === 'refuse' || input.alert.stopPrice === null) return true
      const loss = lossAtStop(input, decision.quantity)
      const equity = add(parseDecimal(input.account.balance), parseDecimal(input.account.openPnl))
      const room = toFixed(subtract(equity, parseDecimal(drawdownFloor(input.config, input.account))), 2)
      if (decision.budget !== null) {
        sizedWithBudget += 1
        if (!atMost(loss, decision.budget)) return false
      }
      return decision.riskAtStop !== null && atMost(loss, decision.riskAtStop) && atMost(loss, room)
    }),
    RUNS,
  )
  t.ok(sizedWithBudget > 100, `the property met budget-sized orders (${sizedWithBudget})`)
})

t.test('fixed_fraction never risks more than maxRiskPerTradePercent of the balance', async (t) => {
  let sized = 0
  fc.assert(
    fc.property(inputArbitrary, (input) => {
      const config = { ...input.config, riskMode: { ...input.config.riskMode, mode: 'fixed_fraction' as const } }
      const decision = sizeEntry({ ...input, config })
      if (decision.kind === 'refuse') return true
      sized += 1
      const perTrade = toFixed(multiply(parseDecimal(input.account.balance), parseDecimal(config.limits.maxRiskPerTradePercent / 100)), 6)
      return atMost(lossAtStop(input, decision.quantity), perTrade)
    }),
    RUNS,
  )
  t.ok(sized > 100, `sized ${sized} fixed_fraction orders`)
})

t.test('alert_quantity never exceeds the alert quantity nor fixedContracts', async (t) => {
  let sized = 0
  fc.assert(
    fc.property(inputArbitrary, (input) => {
      const config = { ...input.config, riskMode: { ...input.config.riskMode, mode: 'alert_quantity' as const } }
      const decision = sizeEntry({ ...input, config })
      if (decision.kind === 'refuse') return input.alert.quantity !== null || decision.code !== 'size_below_one'
      sized += 1
      return input.alert.quantity !== null && decision.quantity <= input.alert.quantity && decision.quantity <= config.riskMode.fixedContracts
    }),
    RUNS,
  )
  t.ok(sized > 100, `sized ${sized} alert_quantity orders`)
})

t.test('every refusal carries a code and one sentence with a figure; only a hard daily limit flattens', async (t) => {
  const codes = new Set<string>()
  fc.assert(
    fc.property(inputArbitrary, (input) => {
      const decision = sizeEntry(input)
      if (decision.kind === 'size') return true
      codes.add(decision.code)
      const oneSentence = decision.reason.length > 20 && decision.reason.endsWith('.') && !decision.reason.slice(0, -1).includes('. ')
      return oneSentence && decision.flatten === (decision.code === 'daily_loss_limit_hard')
    }),
    RUNS,
  )
  t.ok(codes.size >= 8, `refusal codes met: ${[...codes].sort().join(', ')}`)
})

t.test('pure: the same input gives the same decision and is not changed', async (t) => {
  fc.assert(
    fc.property(inputArbitrary, (input) => {
      const copy = structuredClone(input)
      const first = sizeEntry(input)
      return JSON.stringify(input) === JSON.stringify(copy) && JSON.stringify(first) === JSON.stringify(sizeEntry(copy))
    }),
    { numRuns: 500 },
  )
  t.pass('500 inputs: same decision twice, input unchanged')
})
