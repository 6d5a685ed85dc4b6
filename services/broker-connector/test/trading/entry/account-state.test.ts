import t, { type Test } from 'tap'
import { parseDecimal, toPlain, tradingDayOf } from '@signals/instruments'
import { closedTradingDays, DEFAULT_RISK_ENGINE_CONFIG, deriveAccountState } from '@signals/risk-engine'
import { createDb, sql } from '@signals/db'
import { createTestDatabase } from '@signals/test-support'
import { accountStateOf } from '../../../src/trading/entry/account-state.ts'
import { loadAccountRows } from '../../../src/repositories/account-rows.ts'
import { seedUsers } from '../../helper.ts'

async function testDb(t: Test) {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  return db
}

/** A small deterministic generator (mulberry32): the same histories every run. */
function randomOf(seed: number) {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let next = Math.imul(state ^ (state >>> 15), 1 | state)
    next ^= next + Math.imul(next ^ (next >>> 7), 61 | next)
    return ((next ^ (next >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Numeric text without trailing zeros (`1000.50` from Postgres, `1000.5` from the engine), exactly. */
const plainMoney = <Day extends { pnl: string; highestRunningPnl: string }>(day: Day) => ({ ...day, pnl: toPlain(parseDecimal(day.pnl)), highestRunningPnl: toPlain(parseDecimal(day.highestRunningPnl)) })

t.test("cme_trading_day in Postgres gives tradingDayOf's answer for every hour of two years, and at the edges", async (t) => {
  const db = await testDb(t)
  const instants: Date[] = []
  // Every 61 minutes over 2026 and 2027 walks every hour of the day, both DST changes each year and every weekday.
  for (let at = Date.parse('2026-01-01T00:00:00Z'); at < Date.parse('2028-01-01T00:00:00Z'); at += 61 * 60_000) instants.push(new Date(at))
  // 16:59:59.999 and 17:00 Chicago on a winter Friday (CST) and a summer Thursday (CDT), Sunday evening, new year.
  for (const edge of ['2026-11-20T22:59:59.999Z', '2026-11-20T23:00:00Z', '2026-07-16T21:59:59.999Z', '2026-07-16T22:00:00Z', '2026-11-22T23:30:00Z', '2026-12-31T23:00:00Z', '2027-03-14T07:59:59Z', '2027-03-14T08:00:00Z']) {
    instants.push(new Date(edge))
  }
  const { rows } = await sql<{ day: string }>`SELECT cme_trading_day(at)::text AS day FROM unnest(${instants}::timestamptz[]) WITH ORDINALITY AS given(at, n) ORDER BY n`.execute(db)
  const differing = instants.filter((at, index) => rows[index]?.day !== tradingDayOf(at))
  t.equal(rows.length, instants.length)
  t.same(differing.map((at) => at.toISOString()), [], `${instants.length} instants, none differ`)
})

t.test('loadAccountRows: Postgres sums the closed trades per day exactly as closedTradingDays does', async (t) => {
  const db = await testDb(t)
  const users = await seedUsers(db, 3, { prefix: 'trader' })
  const random = randomOf(20261123)
  const now = new Date('2026-11-23T16:00:00Z')
  const trades = users.flatMap((userId, user) =>
    Array.from({ length: 150 + user * 50 }, (_, index) => ({
      user_id: userId,
      // Cents and, now and then, finer (fees): exact decimals either way.
      pnl: (Math.round((random() - 0.45) * 200_000) / (index % 7 === 0 ? 1_000 : 100)).toString(),
      // Over four weeks, on the minute, so some closes share an instant (then id order decides).
      closed_at: new Date(now.getTime() - Math.floor(random() * 28 * 24 * 60) * 60_000),
    })),
  )
  const inserted = await db
    .insertInto('trades')
    .values(trades.map((trade) => ({ ...trade, symbol: 'MNQZ6', root: 'MNQ', side: 'LONG' as const, quantity: '1', entry_price: '21000', status: 'closed' as const, exit_price: '21001', result: Number(trade.pnl) > 0 ? ('TP' as const) : ('SL' as const), opened_at: trade.closed_at })))
    .returning(['id', 'user_id', 'pnl', 'closed_at'])
    .execute()
  await db.insertInto('trades').values({ user_id: 'trader-1', symbol: 'CME_MINI:ES1!', root: null, side: 'SHORT', quantity: '2', entry_price: '6000.25', status: 'open', opened_at: now }).execute()

  const rows = await loadAccountRows(db, users, [], new Map())
  for (const userId of users) {
    const own = inserted.filter((trade) => trade.user_id === userId).sort((a, b) => a.id - b.id)
    const expected = closedTradingDays(own.map((trade) => ({ pnl: String(trade.pnl), closedAt: trade.closed_at as Date })))
    const days = [...(rows.closedDays.get(userId) ?? [])].sort((a, b) => (a.day < b.day ? -1 : 1))
    t.same(days.map(plainMoney), expected.map(plainMoney), `${userId}: ${own.length} trades in ${days.length} days`)
    t.same(
      accountStateOf(rows, userId, DEFAULT_RISK_ENGINE_CONFIG, null, now),
      deriveAccountState(DEFAULT_RISK_ENGINE_CONFIG, { brokerBalance: null, closedDays: expected, openTrades: rows.openTrades.get(userId) ?? [] }, now),
      `${userId}: the same account state`,
    )
    t.equal(days.length, new Set(own.map((trade) => tradingDayOf(trade.closed_at as Date))).size, 'one row per trading day, not per trade')
  }
  t.same(rows.openTrades.get('trader-1'), [{ root: 'ES', side: 'SHORT', quantity: '2.0000', entryPrice: '6000.25000000' }], 'open trades with their root')
  t.notOk(rows.openTrades.has('trader-0'))
})

t.test('a user with no trades has no days and the starting balance', async (t) => {
  const db = await testDb(t)
  const [userId] = await seedUsers(db, 1, { prefix: 'new' })
  const rows = await loadAccountRows(db, [userId as string], [], new Map())
  t.equal(rows.closedDays.size, 0)
  t.match(accountStateOf(rows, userId as string, DEFAULT_RISK_ENGINE_CONFIG, null, new Date()), { balance: '50000.00', tradingDays: 0, closedResults: '' })
})
