import t from 'tap'
import { Writable } from 'node:stream'
import { sql, type Database, type Kysely } from '@signals/db'
import { Durables } from '../../src/intake/plugin.ts'
import type { EntryFlow } from '../../src/trading/entry/entry-flow.ts'
import type { NewAlertRecordRef } from '../../src/repositories/alerts.ts'
import { build, buildInstance, claimRecords, countRows, drained, eventually, makeAlert, publishAlert, seedUsers } from '../helper.ts'

const recordsOf = (alertId: string) =>
  sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts WHERE alert_id = ${alertId}`

t.test('fan-out to 0 live users records nothing, logs that none were enabled, and acknowledges the message', async (t) => {
  const lines: string[] = []
  const loggerStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  const { app, db } = await build(t, { LOG_LEVEL: 'info' }, { loggerStream, feeds: false })
  await seedUsers(db, 3, { prefix: 'off', live: false })
  const alert = makeAlert()
  await publishAlert(app, alert)
  await drained(app, 'ALERTS', Durables.entry)
  t.equal(await countRows(db, recordsOf(alert.alertId)), 0, 'no record written')
  const line = lines.map((l) => JSON.parse(l) as { msg: string; alertId?: string }).find((l) => l.alertId === alert.alertId)
  t.match(line?.msg, /no user with live trading enabled/)
})

t.test('fan-out to 1 live user writes one complete record with the payload in raw_data, and hands it off', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'live' })
  await seedUsers(db, 2, { prefix: 'off', live: false })
  const alert = makeAlert({ userId: 'off-0', entryPrice: 21000.25, sl: 20950.5, tp: 0.1, leverage: 2.5 })
  await publishAlert(app, alert)
  await eventually(async () => (await countRows(db, recordsOf(alert.alertId))) === 1)
  await drained(app, 'ALERTS', Durables.entry)
  const row = await db.selectFrom('alerts').selectAll().where('alert_id', '=', alert.alertId).executeTakeFirstOrThrow()
  t.match(row, {
    user_id: 'live-0',
    owner_user_id: 'off-0',
    symbol: 'NQ1!',
    root: 'NQ',
    action: 'LONG',
    entry_price: '21000.25000000',
    sl: '20950.50000000',
    tp: '0.10000000',
    leverage: '2.5000',
    indicator: 'trend-rider',
    is_test: false,
    status: 'not_placed',
    reason: 'automatic order placement is off: the alert is recorded and no order was placed',
  })
  t.same(row.raw_data, alert.raw, 'raw_data holds the original payload')
  const metrics = await app.inject({ method: 'GET', url: '/metrics' })
  t.match(metrics.body, /connector_records_written_total\{[^}]*kind="entry"[^}]*\} 1\b/, 'counted in /metrics')
})

t.test('fan-out to 1,000 live users writes one record each; users with live trading off are skipped', async (t) => {
  const { app, db } = await build(t)
  const live = await seedUsers(db, 1_000, { prefix: 'live' })
  await seedUsers(db, 50, { prefix: 'off', live: false })
  await seedUsers(db, 5, { prefix: 'pending', approved: false })
  const alert = makeAlert()
  await publishAlert(app, alert)
  await eventually(async () => (await countRows(db, recordsOf(alert.alertId))) === 1_000)
  await drained(app, 'ALERTS', Durables.entry)
  const users = await db.selectFrom('alerts').select(['user_id', 'status']).where('alert_id', '=', alert.alertId).execute()
  t.same(users.map((u) => u.user_id).sort(), [...live].sort(), 'exactly the live users')
  t.ok(users.every((u) => u.status === 'not_placed'), 'every record was handed to the entry flow (auto-place off: kept, nothing placed)')
})

t.test('fan-out skips banned and unapproved users', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 3, { prefix: 'live' })
  await seedUsers(db, 2, { prefix: 'pending', approved: false })
  await sql`INSERT INTO banned_emails (email, reason) VALUES ('live-2@example.com', 'chargebacks')`.execute(db)
  const alert = makeAlert()
  await publishAlert(app, alert)
  await drained(app, 'ALERTS', Durables.entry)
  const rows = await db.selectFrom('alerts').select('user_id').where('alert_id', '=', alert.alertId).orderBy('user_id').execute()
  t.same(rows.map((row) => row.user_id), ['live-0', 'live-1'])
})

t.test('a body that could not be parsed is still recorded, with _raw in raw_data and never queued as an order', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 2, { prefix: 'live', autoPlace: true })
  const alert = makeAlert({ parseFailed: true, raw: 'gibberish from a chart', action: null, symbol: null, root: null, entryPrice: null, sl: null, tp: null, leverage: null, indicator: null })
  await publishAlert(app, alert)
  await eventually(async () => (await countRows(db, recordsOf(alert.alertId))) === 2)
  await drained(app, 'ALERTS', Durables.entry)
  const rows = await db.selectFrom('alerts').select(['raw_data', 'status', 'entry_price', 'refusal_code', 'reason']).where('alert_id', '=', alert.alertId).execute()
  for (const row of rows) {
    t.same(row.raw_data, { _raw: true, raw: 'gibberish from a chart' })
    t.match(row, { status: 'refused', refusal_code: 'incomplete_alert', reason: /lacks an action or a symbol/ })
    t.equal(row.entry_price, null)
  }
  const wrapped = makeAlert({ parseFailed: true, raw: { _raw: true, text: 'Action: ???' }, action: null })
  await publishAlert(app, wrapped)
  await eventually(async () => (await countRows(db, recordsOf(wrapped.alertId))) === 2)
  const row = await db.selectFrom('alerts').select('raw_data').where('alert_id', '=', wrapped.alertId).executeTakeFirstOrThrow()
  t.same(row.raw_data, { _raw: true, text: 'Action: ???' }, 'a raw payload already flagged is kept as it is')
})

t.test('ALERT_ROUTING=targeted delivers only to the payload user, and only if that user is live', async (t) => {
  const { app, db } = await build(t, { ALERT_ROUTING: 'targeted' })
  await seedUsers(db, 5, { prefix: 'live' })
  await seedUsers(db, 1, { prefix: 'off', live: false })
  const toLive = makeAlert({ userId: 'live-3' })
  const toOff = makeAlert({ userId: 'off-0' })
  const toNobody = makeAlert({ userId: null })
  await publishAlert(app, toLive)
  await publishAlert(app, toOff)
  await publishAlert(app, toNobody)
  await drained(app, 'ALERTS', Durables.entry)
  const rows = await db.selectFrom('alerts').select(['alert_id', 'user_id']).execute()
  t.same(rows, [{ alert_id: toLive.alertId, user_id: 'live-3' }])
})

t.test('a redelivered entry alert (published again under another message id) gives no second record or hand-off', async (t) => {
  const handedOff: NewAlertRecordRef[] = []
  let claimed = 0
  const counting = (db: Kysely<Database>): EntryFlow => {
    return {
      async handOff(_alert, records) {
        handedOff.push(...records)
        claimed += await claimRecords(db, records)
      },
    }
  }
  const { app, db } = await build(t, {}, { entryFlow: counting })
  await seedUsers(db, 20, { prefix: 'live' })
  const alert = makeAlert()
  await publishAlert(app, alert, 'alerts.entry', 'first')
  await drained(app, 'ALERTS', Durables.entry)
  await publishAlert(app, alert, 'alerts.entry', 'second')
  await publishAlert(app, alert, 'alerts.entry', 'third')
  await drained(app, 'ALERTS', Durables.entry)
  t.equal(await countRows(db, recordsOf(alert.alertId)), 20, 'one record per user')
  t.equal(handedOff.length, 20, 'the redeliveries found nothing left to hand off')
  t.equal(claimed, 20, 'each record claimed for entry once')
})

t.test('a crash between the insert and the hand-off: the redelivery hands over the records left waiting, once', async (t) => {
  let failOnce = true
  const handedOff: NewAlertRecordRef[] = []
  const flaky = (db: Kysely<Database>): EntryFlow => {
    return {
      async handOff(_alert, records) {
        if (failOnce) {
          failOnce = false
          throw new Error('entry flow unavailable')
        }
        handedOff.push(...records)
        await claimRecords(db, records)
      },
    }
  }
  const { app, db } = await build(t, {}, { entryFlow: flaky })
  await seedUsers(db, 3, { prefix: 'live' })
  const alert = makeAlert()
  await publishAlert(app, alert)
  await eventually(() => handedOff.length === 3)
  await drained(app, 'ALERTS', Durables.entry)
  t.equal(await countRows(db, recordsOf(alert.alertId)), 3)
  t.same(handedOff.map((r) => r.userId).sort(), ['live-0', 'live-1', 'live-2'])
  t.equal(await countRows(db, sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts WHERE status = 'not_placed'`), 3)
})

t.test('a crash between the insert and the hand-off, then the users turn live trading off: the redelivery still hands over the records left waiting', async (t) => {
  // The statement that finds no live user now reads the unsettled records in the same round trip.
  let failOnce = true
  const handedOff: NewAlertRecordRef[] = []
  const flaky = (db: Kysely<Database>): EntryFlow => ({
    async handOff(_alert, records) {
      if (failOnce) {
        failOnce = false
        await sql`UPDATE broker_accounts SET live_trading = false WHERE is_primary`.execute(db)
        throw new Error('entry flow unavailable')
      }
      handedOff.push(...records)
      await claimRecords(db, records)
    },
  })
  const { app, db } = await build(t, {}, { entryFlow: flaky })
  await seedUsers(db, 2, { prefix: 'live' })
  const alert = makeAlert()
  await publishAlert(app, alert)
  await eventually(() => handedOff.length === 2)
  await drained(app, 'ALERTS', Durables.entry)
  t.same(handedOff.map((r) => r.userId).sort(), ['live-0', 'live-1'], 'handed over though nobody is live any more')
  t.equal(await countRows(db, recordsOf(alert.alertId)), 2, 'no record added')
})

t.test('two connector instances on one durable consumer: every alert recorded exactly once per live user', async (t) => {
  const { app, db, config } = await build(t)
  const second = await buildInstance(t, config)
  await seedUsers(db, 25, { prefix: 'live' })
  const alerts = Array.from({ length: 40 }, () => makeAlert())
  // Every alert twice under different message ids, so both instances see copies of the same alert.
  await Promise.all(alerts.flatMap((alert) => [publishAlert(app, alert, 'alerts.entry', `${alert.alertId}-a`), publishAlert(second, alert, 'alerts.entry', `${alert.alertId}-b`)]))
  await eventually(async () => (await countRows(db, sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts`)) === 40 * 25)
  await drained(app, 'ALERTS', Durables.entry)
  const perPair = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts GROUP BY alert_id, user_id HAVING count(*) > 1`.execute(db)
  t.equal(perPair.rows.length, 0, 'no (alert, user) pair twice')
  t.equal(await countRows(db, sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts WHERE status = 'not_placed'`), 1_000, 'all handed off')
})

t.test('an alert whose price does not fit its column is dead-lettered at once with the reason', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'live' })
  const letters: string[] = []
  const { DeadLetterV1, contract } = await import('@signals/contracts')
  await app.bus.consume({
    stream: 'DEAD_LETTERS',
    durable: 'test-dlq',
    subject: 'dlq.alerts.entry',
    contract: contract(DeadLetterV1),
    handler: async (letter) => {
      letters.push(letter.reason)
    },
  })
  const alert = makeAlert({ entryPrice: 1e15 })
  await publishAlert(app, alert)
  await eventually(() => letters.length === 1)
  t.match(letters[0], /rejected by the database: numeric field overflow/)
  t.equal(await countRows(db, recordsOf(alert.alertId)), 0)
})

t.test('a message that keeps failing is dead-lettered with its reason after a bounded number of tries', async (t) => {
  let attempts = 0
  const broken = (): EntryFlow => ({
    async handOff() {
      attempts++
      throw new Error('entry flow rejected the record')
    },
  })
  const { app, db } = await build(t, { CONSUMER_MAX_ATTEMPTS: '3' }, { entryFlow: broken })
  await seedUsers(db, 1, { prefix: 'live' })
  const letters: { reason: string; deliveryCount: number }[] = []
  const { DeadLetterV1, contract } = await import('@signals/contracts')
  await app.bus.consume({
    stream: 'DEAD_LETTERS',
    durable: 'test-dlq-bounded',
    subject: 'dlq.alerts.entry',
    contract: contract(DeadLetterV1),
    handler: async (letter) => {
      letters.push(letter)
    },
  })
  await publishAlert(app, makeAlert())
  await eventually(() => letters.length === 1)
  t.equal(attempts, 3, 'tried exactly CONSUMER_MAX_ATTEMPTS times')
  t.match(letters[0], { deliveryCount: 3, reason: 'failed 3 times; last error: entry flow rejected the record' })
  await drained(app, 'ALERTS', Durables.entry)
})

t.test('a payload holding a NUL or half a surrogate pair is still recorded, the text escaped (issue 22 item 7)', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'live' })
  const alert = makeAlert({ raw: { action: 'buy', note: 'a\u0000b', 'key\u0000': ['\ud800'] } })
  await publishAlert(app, alert)
  await eventually(async () => (await countRows(db, recordsOf(alert.alertId))) === 1, 10_000).catch(() => undefined)
  const row = await db.selectFrom('alerts').select('raw_data').where('alert_id', '=', alert.alertId).executeTakeFirst()
  t.same(row?.raw_data, { action: 'buy', note: 'a\\u0000b', 'key\\u0000': ['\ufffd'] }, 'stored with the NUL written as \\u0000')
})
