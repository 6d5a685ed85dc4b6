import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { eventually, publishAlert, type App } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { clockedTradingApp } from './clocked-timer-helper.ts'

/**
 * The session rules' daily flatten (issue 24 item 8): at the trader's time on the exchange clock every
 * position is flattened, once per trading day, also after a restart; never into the next trading day.
 * The pass is driven by the test with its own clock (the timer's interval is long): no waiting on time.
 */
let broker: PaperBroker
let app: App
let db: Kysely<Database>
let config: Awaited<ReturnType<typeof clockedTradingApp>>['config']
let passAt: Awaited<ReturnType<typeof clockedTradingApp>>['passAt']

t.before(async () => {
  ;({ broker, app, db, config, passAt } = await clockedTradingApp(t))
})

const sessionRules = { tradingWindows: [], dailyFlattenAt: '15:55', maxEntriesPerDay: null, maxExecutionsPerDay: null, newsBlackout: false, flattenBeforeNews: false }

async function openPosition(userId: string) {
  const entry = mnqEntry({ userId })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  return record.id
}

const pass = (at: string) => passAt('dailyFlatten', at)

t.test('flattened at the time, once per trading day; a restart later that day catches up; not into the next day', async (t) => {
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: { sessionRules } })
  await connect(app, 'u-0')
  const first = await openPosition('u-0')

  // Wednesday 25 Nov 2026, Chicago UTC-6: 15:54 is 21:54 UTC.
  t.same(await pass('2026-11-25T21:54:59Z'), [], 'a second before the time: nothing')
  t.equal((await tradeOfRecord(db, first))?.status, 'open')
  t.same(await pass('2026-11-25T21:55:00Z'), ['u-0'], 'at the time: flattened')
  await eventually(async () => (await tradeOfRecord(db, first))?.status === 'closed')
  t.match(await tradeOfRecord(db, first), { status: 'closed', result: 'Session End', close_reason: /daily flatten at 15:55/ })
  const positions = broker.positions().filter((p) => p.accountId === 9000)
  t.ok(positions.every((p) => p.netPos === 0), 'flat at the broker')

  // A new position the same day is the trader's: the flatten does not come back (another pass, a restart).
  const second = await openPosition('u-0')
  t.same(await pass('2026-11-25T22:10:00Z'), [], 'once per trading day')
  t.equal((await tradeOfRecord(db, second))?.status, 'open')

  // The next trading day (Thursday) before the time nothing; a claim left undone by a dead instance is taken again.
  t.same(await pass('2026-11-26T21:00:00Z'), [])
  await sql`INSERT INTO daily_flattens (user_id, trading_day, flatten_at, claimed_at) VALUES ('u-0', '2026-11-26', '15:55', now() - interval '5 minutes')`.execute(db)
  t.same(await pass('2026-11-26T22:30:00Z'), ['u-0'], 'down at 15:55, back at 16:30 the same trading day: flattened, the stale claim taken again')
  await eventually(async () => (await tradeOfRecord(db, second))?.status === 'closed')
  t.match(await sql`SELECT done_at FROM daily_flattens WHERE user_id = 'u-0' AND trading_day = '2026-11-26'`.execute(db).then((r) => r.rows), [{ done_at: Date }])

  // Friday's flatten missed entirely (down until after 17:00): it is not done in Monday's session.
  const third = await openPosition('u-0')
  t.same(await pass('2026-11-27T23:05:00Z'), [], 'after 17:00 the day is over: not flattened into the next one')
  t.equal((await tradeOfRecord(db, third))?.status, 'open')
})
