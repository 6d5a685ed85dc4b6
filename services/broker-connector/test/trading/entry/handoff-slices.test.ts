import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { drained, publishAlert } from '../../helper.ts'
import { Durables } from '../../../src/intake/plugin.ts'
import { PASSWORD } from '../../feeds/feed-helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, tradingApp } from '../../trading-helper.ts'

// A fan-out to 10,000 live traders is one hand-off: locking all its records (and accounts) at once
// overflowed Postgres' shared lock table ("out of shared memory" for every session on the server). The
// hand-off is settled in slices of ENTRY_HANDOFF_SLICE records, their locks let go after each slice.

const TRADERS = 20
const SLICE = 5

interface LockCount {
  records: number
  accounts: number
}

/** The entry-record and entry-account advisory locks held in this database now, read from another connection. */
async function advisoryLocks(db: Kysely<Database>): Promise<LockCount> {
  const { rows } = await sql<{ records: number; accounts: number }>`
    WITH held AS (
      SELECT (classid::bigint << 32) | objid::bigint AS key FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
    SELECT
      (SELECT count(*) FROM held JOIN alerts a ON held.key = hashtextextended('entry-record:' || a.id, 0))::int AS records,
      (SELECT count(*) FROM held JOIN users u ON held.key = hashtextextended('entry-account:' || u.user_id, 0))::int AS accounts`.execute(db)
  return rows[0] ?? { records: 0, accounts: 0 }
}

/** Whether the fan-out's records are all written and none is left `received` or `placing`. */
async function allSettled(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ settled: number }>`SELECT count(*)::int AS settled FROM alerts WHERE status NOT IN ('received', 'placing')`.execute(db)
  return rows[0]?.settled === TRADERS
}

t.test(`a hand-off of ${TRADERS} records with a slice of ${SLICE}: never more than ${SLICE} record or account locks at once, each record placed once`, async (t) => {
  const accounts = Array.from({ length: TRADERS }, (_, i) => ({ name: `trader${i}`, password: PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` }))
  const broker = await paperBroker(t, { accounts })
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { ENTRY_HANDOFF_SLICE: String(SLICE), CONSUMER_ACK_WAIT_MS: '30000' })
  const users = accounts.map((_, i) => `u-${String(i).padStart(2, '0')}`)
  for (const [i, userId] of users.entries()) await liveTrader(db, config, { userId, username: `trader${i}` })
  await Promise.all(users.map((userId) => connect(app, userId)))
  // Each bracket's answer is held a while, so a slice's record locks are held long enough to be seen.
  broker.delay('order/placeOSO', 300)

  const alert = mnqEntry()
  await publishAlert(app, alert)
  const peak: LockCount = { records: 0, accounts: 0 }
  let samples = 0
  // Sampled from the test's own connection until every record is settled (a read each time, no sleep).
  while (!(await allSettled(db))) {
    const now = await advisoryLocks(db)
    peak.records = Math.max(peak.records, now.records)
    peak.accounts = Math.max(peak.accounts, now.accounts)
    samples++
  }
  await drained(app, 'ALERTS', Durables.entry)

  t.ok(peak.records > 0, `record locks were seen held (peak ${peak.records}, ${samples} samples)`)
  t.ok(peak.records <= SLICE, `at most ${SLICE} record locks at once (peak ${peak.records})`)
  t.ok(peak.accounts <= SLICE, `at most ${SLICE} account locks at once (peak ${peak.accounts})`)
  const records = await db.selectFrom('alerts').select(['id', 'status', 'send_attempts', 'reason']).orderBy('id').execute()
  t.equal(records.length, TRADERS, 'one record per live trader')
  t.ok(records.every((record) => record.status === 'placed' && record.send_attempts === 1), 'every record placed, sent once')
  const tags = broker.orders().flatMap((order) => (order.clOrdId && /^sig-\d+$/.test(order.clOrdId) ? [order.clOrdId] : []))
  t.same([...tags].sort(), records.map((record) => `sig-${record.id}`).sort(), 'one entry order per record at the broker')
  t.same(await advisoryLocks(db), { records: 0, accounts: 0 }, 'every lock let go')
})
