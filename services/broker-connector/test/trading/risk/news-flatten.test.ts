import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { waitFor } from '@signals/test-support'
import { eventually, publishAlert, type App } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, tradeOfRecord } from '../../trading-helper.ts'
import { clockedTradingApp } from './clocked-timer-helper.ts'

/**
 * flattenBeforeNews (issue 24 item 8): once an administrator's news event's blackout begins, the trader's
 * positions are flattened, once per event; a trader without it keeps them. The test drives the pass with
 * its own clock (the timer's interval is long): no waiting on time.
 */
let app: App
let db: Kysely<Database>
let config: Awaited<ReturnType<typeof clockedTradingApp>>['config']
let passAt: Awaited<ReturnType<typeof clockedTradingApp>>['passAt']

t.before(async () => {
  ;({ app, db, config, passAt } = await clockedTradingApp(t))
})

const rules = (flattenBeforeNews: boolean) => ({
  sessionRules: { tradingWindows: [], dailyFlattenAt: null, maxEntriesPerDay: null, maxExecutionsPerDay: null, newsBlackout: true, flattenBeforeNews },
})

const pass = (at: string) => passAt('newsFlatten', at)

t.test('the blackout begins: positions flattened once, with the reason; a trader without flattenBeforeNews keeps them', async (t) => {
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: rules(true) })
  await liveTrader(db, config, { userId: 'u-1', username: 'trader1', riskConfig: rules(false) })
  await connect(app, 'u-0')
  await connect(app, 'u-1')
  // One alert reaches both live traders: each opens a position on its own account.
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const records = await waitFor(async () => {
    const rows = await db.selectFrom('alerts').select(['id', 'user_id', 'status']).where('alert_id', '=', entry.alertId).execute()
    return rows.length === 2 && rows.every((row) => row.status === 'placed') ? rows : undefined
  })
  const mine = Number(records.find((row) => row.user_id === 'u-0')?.id)
  const theirs = Number(records.find((row) => row.user_id === 'u-1')?.id)
  await eventually(async () => (await tradeOfRecord(db, mine)) !== undefined && (await tradeOfRecord(db, theirs)) !== undefined)
  await sql`INSERT INTO news_events (name, at, minutes_before, minutes_after) VALUES ('CPI', '2026-12-10T13:30:00Z', 5, 5)`.execute(db)

  t.same(await pass('2026-12-10T13:24:59Z'), [], 'before the blackout: nothing')
  t.same(await pass('2026-12-10T13:25:00Z'), ['u-0'], 'the blackout begins: flattened')
  await eventually(async () => (await tradeOfRecord(db, mine))?.status === 'closed')
  t.match(await tradeOfRecord(db, mine), { status: 'closed', result: 'Session End', close_reason: 'Closed before the news blackout for CPI at 07:30 exchange time (America/Chicago).' })
  t.equal((await tradeOfRecord(db, theirs))?.status, 'open', 'without flattenBeforeNews the position stays')
  t.same(await pass('2026-12-10T13:28:00Z'), [], 'once per event')
  t.same(await pass('2026-12-10T13:36:00Z'), [], 'after the blackout: nothing')
})
