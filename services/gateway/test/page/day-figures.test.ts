import t from 'tap'
import { pageRoomLeft, pageTotals, pageTradingDay, type PageRiskConfig } from './page-modules.ts'

// A trade closed at 18:00 Chicago belongs to the next trading day, as the risk engine counts it, though
// its UTC date is still today's: the page's "Today's PnL", daily loss line and end-of-day floor follow.
const closed = [
  { closedAt: '2026-07-01T15:00:00.000Z', pnl: '200.00' }, // Wednesday 10:00 CDT: Wednesday
  { closedAt: '2026-07-01T23:00:00.000Z', pnl: '-450.00' }, // Wednesday 18:00 CDT: Thursday
  { closedAt: '2026-07-02T14:00:00.000Z', pnl: '-150.00' }, // Thursday 09:00 CDT: Thursday
]
const thursday = pageTradingDay.tradingDayOf(new Date('2026-07-02T15:00:00Z'))

const config = (mode: PageRiskConfig['trailingDrawdown']['mode']): PageRiskConfig => ({
  account: { startingBalance: 50_000 },
  trailingDrawdown: { amount: 2_500, mode, stopTrailingAtBalance: null },
  dailyLossLimit: { enabled: true, amount: 1_000 },
})

t.test("today's PnL counts the trade closed after 17:00 Chicago toward the next trading day", async (t) => {
  t.equal(thursday, '2026-07-02')
  const totals = pageTotals.totalsOf(closed, thursday)
  t.equal(totals.today, -600, 'Thursday: the 18:00 Wednesday trade and Thursday morning (UTC dates would give −150)')
  t.equal(totals.total, -400)
  t.equal(totals.count, 3)
  t.equal(totals.winRate, 1 / 3)
  t.equal(pageTotals.totalsOf(closed, '2026-07-01').today, 200, 'Wednesday: only the trade before 17:00')
})

t.test('the daily loss line is drawn from the trading day’s start', async (t) => {
  const intraday = config('intraday_realized')
  const points = pageRoomLeft.balancePath(closed, intraday)
  const figures = pageRoomLeft.roomFigures(points, closed, intraday, thursday)
  t.same(figures, { balance: 49_600, floor: 47_700, room: 1_900, todayPnl: -600, dailyLine: 49_200, dailyRoom: 400 })
})

t.test('end of day: the floor rises at the 17:00 roll, not at UTC midnight', async (t) => {
  const points = pageRoomLeft.balancePath(closed, config('end_of_day'))
  t.same(
    points.map(({ day, balance, floor }) => ({ day, balance, floor })),
    [
      { day: null, balance: 50_000, floor: 47_500 },
      { day: '2026-07-01', balance: 50_200, floor: 47_500 },
      // Wednesday closed at 50,200 before the 18:00 trade: the new trading day starts from that peak.
      { day: '2026-07-02', balance: 49_750, floor: 47_700 },
      { day: '2026-07-02', balance: 49_600, floor: 47_700 },
    ],
  )
})

t.test('totals are summed exactly, as the database holds them (no float drift)', async (t) => {
  const cents = [
    { closedAt: '2026-07-02T14:00:00.000Z', pnl: '0.10' },
    { closedAt: '2026-07-02T14:05:00.000Z', pnl: '0.20' },
  ]
  t.equal(pageTotals.totalsOf(cents, thursday).total, 0.3, '0.10 + 0.20 is 0.30, not 0.30000000000000004')
})

t.test('the balance path is summed exactly too', async (t) => {
  const cents = [
    { closedAt: '2026-07-02T14:00:00.000Z', pnl: '0.10' },
    { closedAt: '2026-07-02T14:05:00.000Z', pnl: '0.20' },
  ]
  const points = pageRoomLeft.balancePath(cents, config('intraday_realized'))
  t.equal(points.at(-1)?.balance, 50_000.3, '50,000 + 0.10 + 0.20')
})
