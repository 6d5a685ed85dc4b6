// What one entry batch reads to decide 20 users' entries, by the length of their trade history: the
// account rows as the connector reads them now (closed trades summed per CME trading day in Postgres,
// `loadAccountRows`) against every closed trade read and summed in the process (how it was read before),
// side by side in one run on one database. Both give the same account states (checked here).
// Bar: the rows read do not grow with the number of trades (10,000 vs 1,000 per user), and the heap they
// hold grows by at most 2 bytes per added trade: the W/L run the anti-martingale mode walks, one character
// per trade, is the only part that follows the history.
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { sql, createDb, type Database, type Kysely } from '@signals/db'
import { closedTradingDays, DEFAULT_RISK_ENGINE_CONFIG, deriveAccountState, type AccountState } from '@signals/risk-engine'
import { createTestDatabase } from '@signals/test-support'
import { accountStateOf } from '../services/broker-connector/src/trading/entry/account-state.ts'
import { loadAccountRows } from '../services/broker-connector/src/repositories/account-rows.ts'

const USERS = 20
const RUNS = 7
const DAYS = 40
const NOW = new Date('2026-11-23T16:00:00Z')

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
const out = (line = '') => process.stdout.write(`${line}\n`)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const userIds = Array.from({ length: USERS }, (_, index) => `bench-${index}`)

/** A read: the rows as the query hands them over, and the account states derived from them. */
interface Read {
  rows: number
  raw: unknown
  states(): AccountState[]
}

/** Now: one row per user and trading day. */
async function readDays(db: Kysely<Database>): Promise<Read> {
  const raw = await loadAccountRows(db, userIds, [], new Map())
  return {
    rows: [...raw.closedDays.values()].reduce((sum, days) => sum + days.length, 0),
    raw,
    states: () => userIds.map((userId) => accountStateOf(raw, userId, DEFAULT_RISK_ENGINE_CONFIG, null, NOW)),
  }
}

/** Before: every closed trade of the users, summed here. */
async function readTrades(db: Kysely<Database>): Promise<Read> {
  const { rows } = await sql<{ user_id: string; pnl: string; closed_at: Date }>`
    SELECT user_id, pnl, closed_at FROM trades WHERE user_id = ANY(${userIds}::text[]) AND status = 'closed'`.execute(db)
  return {
    rows: rows.length,
    raw: rows,
    states: () =>
      userIds.map((userId) => {
        const closed = rows.filter((row) => row.user_id === userId).map((row) => ({ pnl: row.pnl, closedAt: row.closed_at }))
        return deriveAccountState(DEFAULT_RISK_ENGINE_CONFIG, { brokerBalance: null, closedDays: closedTradingDays(closed), openTrades: [] }, NOW)
      }),
  }
}

/**
 * Median time of a read and its derivation, and the heap the read's rows hold while a batch is decided:
 * heap after GC with them held, less after they are let go (a further query makes the connection drop
 * its last result too; the pool has one connection, so that is the one).
 */
async function measure(db: Kysely<Database>, read: () => Promise<Read>): Promise<{ ms: number; heldKiB: number; rows: number; states: AccountState[] }> {
  ;(await read()).states() // warm-up
  const times: number[] = []
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now()
    ;(await read()).states()
    times.push(performance.now() - started)
  }
  let result: Read | null = await read()
  const { rows } = result
  const states = result.states()
  await sql`SELECT 1`.execute(db)
  collect()
  const holding = process.memoryUsage().heapUsed
  result = null
  await sql`SELECT 1`.execute(db)
  collect()
  const heldKiB = (holding - process.memoryUsage().heapUsed) / 1024
  return { ms: median(times), heldKiB, rows, states }
}

const database = await createTestDatabase()
const db = createDb({ connectionString: database.url, max: 1 })
let passed = true
try {
  await sql`INSERT INTO users (user_id, email, name, approved) SELECT u, u || '@example.com', u, true FROM unnest(${userIds}::text[]) AS u`.execute(db)
  out(`## Account read: what one entry batch reads for ${USERS} users, by history length`)
  out()
  out(`Closed trades spread over the last ${DAYS} days; one connection (the three queries of a read run one after another), median of ${RUNS} reads with their derivation; heap held = what the rows hold while a batch is decided (heap after GC with them held, less once let go).`)
  out()
  out('| closed trades per user | read | rows read | median (ms) | heap held (KiB) | time ratio (days / trades) |')
  out('|---|---|---|---|---|---|')
  const byDays: { rows: number; heldKiB: number }[] = []
  let inserted = 0
  for (const trades of [1_000, 10_000]) {
    await sql`
      INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, exit_price, status, result, pnl, opened_at, closed_at)
      SELECT u, 'MNQZ6', 'MNQ', 'LONG', 1, 21000, 21001, 'closed', CASE WHEN g % 3 = 0 THEN 'SL' ELSE 'TP' END,
             CASE WHEN g % 3 = 0 THEN -(g % 97) * 2.5 - 10 ELSE (g % 89) * 1.75 + 5 END,
             ${NOW}::timestamptz - make_interval(mins => (g * 7919) % (${DAYS} * 1440)), ${NOW}::timestamptz - make_interval(mins => (g * 7919) % (${DAYS} * 1440))
      FROM unnest(${userIds}::text[]) AS u, generate_series(${inserted + 1}::int, ${trades}::int) AS g`.execute(db)
    inserted = trades
    await sql`ANALYZE trades`.execute(db)
    const days = await measure(db, () => readDays(db))
    const all = await measure(db, () => readTrades(db))
    if (JSON.stringify(days.states) !== JSON.stringify(all.states)) {
      out('The two reads disagree on an account state: FAIL')
      passed = false
    }
    out(`| ${trades.toLocaleString('en')} | per trading day (now) | ${days.rows} | ${days.ms.toFixed(1)} | ${days.heldKiB.toFixed(0)} | ${(days.ms / all.ms).toFixed(2)} |`)
    out(`| ${trades.toLocaleString('en')} | every trade (before) | ${all.rows} | ${all.ms.toFixed(1)} | ${all.heldKiB.toFixed(0)} | 1 |`)
    byDays.push({ rows: days.rows, heldKiB: days.heldKiB })
  }
  const [short, long] = byDays
  const addedTrades = USERS * 9_000
  const bytesPerAddedTrade = short && long ? ((long.heldKiB - short.heldKiB) * 1024) / addedTrades : Infinity
  const bounded = short !== undefined && long !== undefined && long.rows === short.rows && bytesPerAddedTrade <= 2
  out()
  out(
    `Bar: the per-day read returns the same rows at 10,000 trades per user as at 1,000 (${short?.rows} and ${long?.rows}) and its heap grows by ${bytesPerAddedTrade.toFixed(2)} bytes per added trade (at most 2: the W/L run): ${bounded ? 'PASS' : 'FAIL'}`,
  )
  passed &&= bounded
} finally {
  await db.destroy()
  await database.drop()
}
process.exit(passed ? 0 : 1)
