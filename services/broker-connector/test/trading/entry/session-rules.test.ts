import t, { type Test } from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import type { NormalizedAlert } from '@signals/contracts'
import { eventually, publishAlert, setLiveTrading, type App } from '../../helper.ts'
import { tradingDayOf } from '@signals/instruments'
import { PASSWORD } from '../../feeds/feed-helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

/**
 * Session rules on the entry (issue 24 item 8): trading windows on the exchange clock, the trading day's
 * entry and execution caps, and the administrator's news blackouts (with the flatten first where the
 * trader asks). The session rules' clock is the test's (`clock`); the alert ages are Postgres'.
 */
let broker: PaperBroker
let app: App
let db: Kysely<Database>
let config: Awaited<ReturnType<typeof tradingApp>>['config']
let next = 0
/** null = the system clock. */
let clockAt: Date | null = null

const rules = (sessionRules: Record<string, unknown>) => ({
  sessionRules: { tradingWindows: [], dailyFlattenAt: null, maxEntriesPerDay: null, maxExecutionsPerDay: null, newsBlackout: false, flattenBeforeNews: false, ...sessionRules },
})

t.before(async () => {
  // A broker account per trader: a position one case leaves open must not be another's.
  broker = await paperBroker(t, {
    accounts: Array.from({ length: 10 }, (_, i) => ({ name: `trader${i}`, password: PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` })),
  })
  broker.setPrice('MNQZ6', '21000')
  broker.setPrice('ESZ6', '6000')
  ;({ app, db, config } = await tradingApp(t, broker, { RISK_WATCHDOG_MS: '600000' }, { clock: () => clockAt ?? new Date() }))
})

t.afterEach(() => {
  clockAt = null
})

async function trader(riskConfig?: unknown) {
  const userId = `u-${next}`
  await liveTrader(db, config, { userId, username: `trader${next}`, riskConfig })
  next++
  await connect(app, userId)
  return userId
}

/** Publishes the entry and answers its settled record, with whether anything reached the broker. */
async function enter(userId: string, alert: NormalizedAlert = mnqEntry({ userId })) {
  const before = broker.orders().length
  await publishAlert(app, alert)
  // The alert reaches every live trader; this trader's record is the one looked at.
  const mine = db.selectFrom('alerts').selectAll().where('alert_id', '=', alert.alertId).where('user_id', '=', userId)
  await eventually(async () => {
    const row = await mine.executeTakeFirst()
    return row !== undefined && row.status !== 'received' && row.status !== 'placing'
  })
  const record = await mine.executeTakeFirstOrThrow()
  return { record, sent: broker.orders().length > before }
}

async function done(userId: string) {
  await setLiveTrading(db, [userId], { enabled: false, autoPlaceOrders: false })
}

t.test('trading windows: refused outside the window on the exchange clock, placed inside it', async (t: Test) => {
  const userId = await trader(rules({ tradingWindows: [{ start: '08:30', end: '15:00' }] }))
  // 26 Nov 2026, CST (UTC-6): 16:00 UTC is 10:00 Chicago, 21:00 UTC is 15:00 Chicago (the end is outside).
  clockAt = new Date('2026-11-26T21:00:00Z')
  const outside = await enter(userId)
  t.notOk(outside.sent, 'nothing sent to the broker')
  t.match(outside.record, {
    status: 'refused',
    refusal_code: 'outside_trading_window',
    reason: 'It is 15:00 exchange time (America/Chicago), outside the trading windows 08:30-15:00: no new entries (exits are always allowed).',
  })
  clockAt = new Date('2026-11-26T16:00:00Z')
  const inside = await enter(userId)
  t.ok(inside.sent)
  t.match(inside.record, { status: 'placed' })
  await done(userId)
})

t.test('a window crossing midnight allows the evening and the early morning', async (t: Test) => {
  const userId = await trader(rules({ tradingWindows: [{ start: '22:00', end: '02:00' }] }))
  clockAt = new Date('2026-11-27T07:30:00Z') // 01:30 Chicago
  t.match((await enter(userId)).record, { status: 'placed' })
  clockAt = new Date('2026-11-27T08:30:00Z') // 02:30 Chicago
  t.match((await enter(userId)).record, { status: 'refused', refusal_code: 'outside_trading_window', reason: /It is 02:30 exchange time/ })
  await done(userId)
})

t.test('the trading day\'s entries are capped: the second entry of the day is refused', async (t: Test) => {
  const userId = await trader(rules({ maxEntriesPerDay: 1 }))
  const first = await enter(userId)
  t.match(first.record, { status: 'placed' })
  const second = await enter(userId)
  t.notOk(second.sent)
  t.match(second.record, {
    status: 'refused',
    refusal_code: 'max_entries_per_day',
    reason: '1 entries were sent this trading day and the limit is 1: no new entries until the next trading day.',
  })
  // Entries of another trading day do not count: the clock a day on, the cap is fresh.
  let later = Date.now()
  while (tradingDayOf(new Date(later)) === tradingDayOf(new Date())) later += 3_600_000
  clockAt = new Date(later)
  const es = mnqEntry({ userId, symbol: 'ES1!', root: 'ES', entryPrice: 6000, sl: 5990, tp: 6020 })
  t.match((await enter(userId, es)).record, { status: 'placed' }, 'the next trading day allows entries again')
  await done(userId)
})

t.test('the trading day\'s executions are capped: entry and exit fills count', async (t: Test) => {
  const userId = await trader(rules({ maxExecutionsPerDay: 3 }))
  // One closed trade today (two executions), then one open (one more): three.
  await sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, exit_price, status, result, pnl, closed_at)
    VALUES (${userId}, 'ES1!', 'ES', 'LONG', 1, 6000, 6001, 'closed', 'TP', 50, now())`.execute(db)
  const first = await enter(userId)
  t.match(first.record, { status: 'placed' }, 'two executions: below the cap')
  await eventually(async () => (await tradeOfRecord(db, first.record.id)) !== undefined)
  t.match((await enter(userId)).record, { status: 'refused', refusal_code: 'max_executions_per_day', reason: /^3 executions were filled this trading day and the limit is 3/ })
  await done(userId)
})

t.test('news blackout: entries refused from minutes before to minutes after; outside it, placed', async (t: Test) => {
  const userId = await trader(rules({ newsBlackout: true }))
  clockAt = new Date('2026-12-04T13:25:00Z')
  await sql`INSERT INTO news_events (name, at, minutes_before, minutes_after) VALUES ('Nonfarm payrolls', '2026-12-04T13:30:00Z', 5, 10)`.execute(db)
  const during = await enter(userId)
  t.notOk(during.sent)
  t.match(during.record, {
    status: 'refused',
    refusal_code: 'news_blackout',
    reason: 'News blackout for Nonfarm payrolls at 07:30 exchange time (5 min before, 10 min after): no new entries until 07:40.',
  })
  clockAt = new Date('2026-12-04T13:40:00Z')
  t.match((await enter(userId)).record, { refusal_code: 'news_blackout' }, 'the end of the blackout is inside it')
  clockAt = new Date('2026-12-04T13:40:01Z')
  t.match((await enter(userId)).record, { status: 'placed' }, 'after the blackout: placed')
  await done(userId)
  // Every live trader gets every alert: the next trader is switched on once the first is off.
  const other = await trader()
  clockAt = new Date('2026-12-04T13:30:00Z')
  t.match((await enter(other)).record, { status: 'placed' }, 'a trader without news blackouts is not held')
  await done(other)
})

t.test('news blackout with flattenBeforeNews: the entry is refused and the open position flattened', async (t: Test) => {
  const userId = await trader(rules({ newsBlackout: true, flattenBeforeNews: true }))
  const opened = await enter(userId)
  t.match(opened.record, { status: 'placed' })
  await eventually(async () => (await tradeOfRecord(db, opened.record.id)) !== undefined)
  clockAt = new Date('2026-12-09T13:29:00Z')
  await sql`INSERT INTO news_events (name, at, minutes_before, minutes_after) VALUES ('CPI', '2026-12-09T13:30:00Z', 2, 2)`.execute(db)
  t.match((await enter(userId)).record, { status: 'refused', refusal_code: 'news_blackout', reason: /CPI.*every position is flattened/ })
  await eventually(async () => (await tradeOfRecord(db, opened.record.id))?.status === 'closed')
  t.equal((await tradeOfRecord(db, opened.record.id))?.status, 'closed', 'the open trade was flattened')
  await done(userId)
})
