import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import fc from 'fast-check'
import { tradingDayOf } from '@signals/instruments'
import { closedTradingDays, deriveAccountState, TRAILING_MODES, type ClosedTradeRecord } from '../src/index.ts'
import { configWith } from './fixtures.ts'

const cents = (value: bigint) => `${value < 0n ? '-' : ''}${(value < 0n ? -value : value) / 100n}.${String((value < 0n ? -value : value) % 100n).padStart(2, '0')}`

/**
 * The account figures walked trade by trade, as the engine did before it read per-day sums: the
 * reference the per-day derivation must agree with, whatever the history.
 */
function walkTradeByTrade(start: bigint, trades: readonly { pnlCents: bigint; closedAt: Date }[], now: Date) {
  const today = tradingDayOf(now)
  const ordered = [...trades].sort((a, b) => a.closedAt.getTime() - b.closedAt.getTime())
  let balance = start
  let realizedPeak = start
  let endOfDayPeak = start
  const perDay = new Map<string, bigint>()
  ordered.forEach((trade, index) => {
    const day = tradingDayOf(trade.closedAt)
    balance += trade.pnlCents
    if (balance > realizedPeak) realizedPeak = balance
    perDay.set(day, (perDay.get(day) ?? 0n) + trade.pnlCents)
    const next = ordered[index + 1]
    if ((next === undefined || tradingDayOf(next.closedAt) !== day) && day < today && balance > endOfDayPeak) endOfDayPeak = balance
  })
  return {
    balance,
    realizedPeak,
    endOfDayPeak,
    today: perDay.get(today) ?? 0n,
    results: ordered.map((trade) => (trade.pnlCents > 0n ? 'W' : 'L')).join(''),
    dailyNewestFirst: [...perDay.entries()].sort(([a], [b]) => (a < b ? 1 : -1)).map(([, pnl]) => cents(pnl)),
  }
}

const NOW = new Date('2026-11-23T16:00:00Z')
const historyArbitrary = fc.record({
  start: fc.integer({ min: 1_000, max: 300_000 }),
  mode: fc.constantFrom(...TRAILING_MODES),
  // Distinct close instants over the last three weeks (same-instant closes have no defined order).
  trades: fc.uniqueArray(
    fc.record({ pnlCents: fc.bigInt({ min: -500_000n, max: 500_000n }), minutesAgo: fc.integer({ min: 0, max: 21 * 24 * 60 }) }),
    { selector: (trade) => trade.minutesAgo, maxLength: 80 },
  ),
})

t.test('per-day sums give exactly the figures of a trade-by-trade walk', async (t) => {
  fc.assert(
    fc.property(historyArbitrary, ({ start, mode, trades }) => {
      const closed = trades.map((trade) => ({ pnlCents: trade.pnlCents, closedAt: new Date(NOW.getTime() - trade.minutesAgo * 60_000) }))
      const records: ClosedTradeRecord[] = closed.map((trade) => ({ pnl: cents(trade.pnlCents), closedAt: trade.closedAt }))
      const state = deriveAccountState(configWith({ account: { startingBalance: start }, trailingDrawdown: { mode } }), { brokerBalance: null, closedDays: closedTradingDays(records), openTrades: [] }, NOW)
      const reference = walkTradeByTrade(BigInt(start) * 100n, closed, NOW)
      const peak = mode === 'end_of_day' ? reference.endOfDayPeak : reference.realizedPeak
      const derived = [state.balance, state.peakBalance, state.todayRealizedPnl, state.closedResults, state.dailyPnl, state.tradingDays]
      return isDeepStrictEqual(derived, [cents(reference.balance), cents(peak), cents(reference.today), reference.results, reference.dailyNewestFirst, reference.dailyNewestFirst.length])
    }),
    { numRuns: 1_000 },
  )
  t.pass('balance, peak in each trailing mode, today, results and daily pnl agree on 1000 histories')
})
