import t from 'tap'
import { closedTradingDays, deriveAccountState, drawdownFloor, sizeEntry, type ClosedTradeRecord, type TradeHistory } from '../src/index.ts'
import { configWith, input } from './fixtures.ts'

const closed = (pnl: string, at: string) => ({ pnl, closedAt: new Date(at) })
/** A week of trades on a 50,000 account, listed out of order on purpose. */
const closedTrades = [
  closed('-900', '2026-11-20T16:00:00Z'), // Fri 20th: 50,300 (after 51,200 intraday)
  closed('600', '2026-11-18T15:00:00Z'), // Wed 18th: 50,600
  closed('400', '2026-11-18T20:00:00Z'), // Wed 18th close: 51,000
  closed('-300', '2026-11-19T15:00:00Z'), // Thu 19th close: 50,700
  closed('500', '2026-11-19T23:30:00Z'), // 17:30 CST on Thursday: Friday's session, 51,200
  closed('200', '2026-11-23T15:00:00Z'), // today, Mon 23rd: 50,500
]
const NOW = new Date('2026-11-23T16:00:00Z')
const history = ({ closed = closedTrades, ...overrides }: Partial<TradeHistory> & { closed?: ClosedTradeRecord[] } = {}): TradeHistory => ({
  brokerBalance: null,
  closedDays: closedTradingDays(closed),
  openTrades: [
    { root: 'ES', side: 'LONG', quantity: 1, entryPrice: '6000', openPnl: '350' },
    { root: 'CL', side: 'SHORT', quantity: '2', entryPrice: '71.5', openPnl: null },
  ],
  ...overrides,
})

t.test('balance, today, open pnl, run, days and daily pnl from the closed trades', async (t) => {
  const state = deriveAccountState(configWith(), history(), NOW)
  t.equal(state.balance, '50500.00', '50,000 + 600 + 400 - 300 + 500 - 900 + 200')
  t.equal(state.todayRealizedPnl, '200.00')
  t.equal(state.openPnl, '350.00', 'an unknown open pnl adds nothing')
  t.equal(state.closedResults, 'WWLWLW', 'oldest first')
  t.same(state.dailyPnl, ['200.00', '-400.00', '-300.00', '1000.00'], 'per CME trading day, newest first (the 17:30 CST trade is Friday)')
  t.equal(state.tradingDays, 4)
  t.equal(state.openTrades.length, 2)
  t.equal(state.haltedForSession, false)
  t.equal(deriveAccountState(configWith(), history({ haltedForSession: true }), NOW).haltedForSession, true)
  t.equal(deriveAccountState(configWith(), history({ brokerBalance: '50480.55' }), NOW).balance, '50480.55', "the broker's balance wins")
})

t.test('the peak follows the trailing mode', async (t) => {
  const peak = (mode: 'end_of_day' | 'intraday_realized' | 'intraday_unrealized', overrides: Parameters<typeof history>[0] = {}) =>
    deriveAccountState(configWith({ trailingDrawdown: { mode } }), history(overrides), NOW).peakBalance
  t.equal(peak('end_of_day'), '51000.00', 'session closes 51,000, 50,700, 50,300; today not closed')
  t.equal(peak('intraday_realized'), '51200.00', 'after the Friday-session win')
  t.equal(peak('intraday_unrealized'), '51200.00', 'equity now 50,850 is below it')
  const richOpen = { openTrades: [{ root: 'ES', side: 'LONG' as const, quantity: 1, entryPrice: '6000', openPnl: '800' }] }
  t.equal(peak('intraday_unrealized', richOpen), '51300.00', 'equity 50,500 + 800')
  t.equal(peak('intraday_realized', richOpen), '51200.00', 'open profit does not count here')
  t.equal(peak('end_of_day', { recordedPeakBalance: '51500' }), '51500.00', 'a peak the caller tracked')
  t.equal(peak('end_of_day', { closed: [closed('-500', '2026-11-18T15:00:00Z')] }), '50000.00', 'never below the start')
  t.equal(peak('intraday_realized', { closed: [], brokerBalance: '50250' }), '50250.00', "the broker's balance now is a balance reached")
})

t.test('drawdownFloor: peak less the trailing amount, held at stopTrailingAtBalance', async (t) => {
  const state = deriveAccountState(configWith(), history(), NOW)
  t.equal(drawdownFloor(configWith(), state), '49000.00')
  t.equal(drawdownFloor(configWith({ trailingDrawdown: { stopTrailingAtBalance: 50_100 } }), state), '49000.00', 'below the lock it still trails')
  t.equal(drawdownFloor(configWith({ trailingDrawdown: { stopTrailingAtBalance: 48_500 } }), state), '48500.00', 'locked')
  t.equal(drawdownFloor(configWith(), { peakBalance: '50000' }), '48000.00')
})

t.test('a derived state sizes an entry', async (t) => {
  // Balance 50,500, equity 50,850, floor 49,000: room 1,850 less 10% = 1,665; 1% = 505; daily left 1,000 + 550 = 1,550.
  t.same(sizeEntry(input({ account: deriveAccountState(configWith(), history(), NOW) })), {
    kind: 'size',
    quantity: 2,
    budget: '505.00',
    riskAtStop: '400.00',
    note: null,
  })
})

t.test('no trades: the starting balance', async (t) => {
  const state = deriveAccountState(configWith({ account: { startingBalance: 100_000 } }), { brokerBalance: null, closedDays: [], openTrades: [] }, NOW)
  t.same(state, { balance: '100000.00', peakBalance: '100000.00', todayRealizedPnl: '0.00', openPnl: '0.00', openTrades: [], closedResults: '', haltedForSession: false, dailyPnl: [], tradingDays: 0 })
})

t.test('closedTradingDays: one entry per CME trading day, oldest first, with the highest running total', async (t) => {
  t.same(closedTradingDays(closedTrades), [
    { day: '2026-11-18', pnl: '1000', highestRunningPnl: '1000', results: 'WW' },
    { day: '2026-11-19', pnl: '-300', highestRunningPnl: '700', results: 'L' },
    { day: '2026-11-20', pnl: '-400', highestRunningPnl: '1200', results: 'WL' },
    { day: '2026-11-23', pnl: '200', highestRunningPnl: '500', results: 'W' },
  ])
  t.same(closedTradingDays([closed('-0.125', '2026-11-18T15:00:00Z'), closed('0', '2026-11-18T16:00:00Z')]), [{ day: '2026-11-18', pnl: '-0.125', highestRunningPnl: '-0.125', results: 'LL' }], 'exact, and a zero result is a loss')
  t.same(closedTradingDays([]), [])
})

t.test('the days may come in any order', async (t) => {
  const days = closedTradingDays(closedTrades)
  t.same(deriveAccountState(configWith(), { ...history(), closedDays: [...days].reverse() }, NOW), deriveAccountState(configWith(), history(), NOW))
})
