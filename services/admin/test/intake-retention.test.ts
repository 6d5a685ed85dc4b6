import t from 'tap'
import { randomUUID } from 'node:crypto'
import type { Database, Kysely } from '@signals/db'
import { eventually } from '@signals/test-support'
import { pruneIntakeLog } from '../src/retention/intake-retention.ts'
import { build } from './helper.ts'

const DAY_MS = 24 * 60 * 60 * 1000

async function logEntries(db: Kysely<Database>, count: number, receivedAt: Date) {
  await db
    .insertInto('intake_log')
    .values(Array.from({ length: count }, () => ({ intake_id: randomUUID(), received_at: receivedAt, source: 'body', content_type: null, remote_address: null, raw_body: 'x', outcome: 'invalid', status_code: 400, reason: null, alert_id: null, kind: null })))
    .execute()
}

const count = async (db: Kysely<Database>) => Number((await db.selectFrom('intake_log').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n)

t.test('entries past the retention period are deleted in batches; newer ones stay (issue 22 item 7)', async (t) => {
  // The service's own prune (on start, not awaited) keeps 100 years here: it must not race this test's call,
  // which is the one that keeps 30 days.
  const { app } = await build(t, { INTAKE_LOG_RETENTION_DAYS: '36500' })
  await app.db.deleteFrom('intake_log').execute()
  const now = new Date()
  await logEntries(app.db, 7, new Date(now.getTime() - 31 * DAY_MS))
  await logEntries(app.db, 3, new Date(now.getTime() - 29 * DAY_MS))
  t.equal(await pruneIntakeLog(app.db, 30, { now, batchSize: 2 }), 7, 'seven old entries, four batches of at most two')
  t.equal(await count(app.db), 3, 'the entries within 30 days stay')
  t.equal(await pruneIntakeLog(app.db, 30, { now, batchSize: 2 }), 0, 'nothing more to delete')
})

t.test('the admin service prunes on start and then every interval', async (t) => {
  const { app } = await build(t, { INTAKE_LOG_RETENTION_DAYS: '1', INTAKE_LOG_PRUNE_INTERVAL_SECONDS: '1' })
  await logEntries(app.db, 4, new Date(Date.now() - 2 * DAY_MS))
  await logEntries(app.db, 2, new Date())
  await eventually(async () => (await count(app.db)) === 2, { timeoutMs: 10_000, intervalMs: 100 })
  t.equal(await count(app.db), 2, 'the next run deleted the old entries and kept the new')
})
