import t from 'tap'
import { sql } from '@signals/db'
import { tryExitLock, waitExitLock } from '../../src/repositories/exit-locks.ts'
import { build, eventually } from '../helper.ts'

/**
 * An exit lock holds a connection of its own for a whole close (reads, cut, send, put-back), and the flatten
 * runner carries out up to 16 users' requests at once against a pool of 10: the locks held at once stay below
 * the pool, and the work under a lock queries on the lock's connection. Ten users' partial closes at once
 * (a source's "close half" fanned out) once took every connection for their locks, and every query inside
 * waited for an 11th until "timeout exceeded when trying to connect" (6 of 10 failed before the fix).
 */
t.test('ten users\' closes at once, each holding its exit lock and querying the pool, all complete', async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const runs = await Promise.allSettled(Array.from({ length: 10 }, (_, i) =>
    waitExitLock(db, `pool-${i}`, 'MNQZ6', 30_000, async () => {
      // A query on the pool beside the lock's connection (the runner's own bookkeeping does so).
      await sql`SELECT pg_sleep(0.2)`.execute(db)
      return i
    })))
  const failed = runs.filter((run) => run.status === 'rejected')
  t.equal(failed.length, 0, `${failed.length} of 10 failed: ${failed.map((run) => String((run as PromiseRejectedResult).reason?.message ?? run)).slice(0, 1).join('')}`)
  t.same(runs.map((run) => (run.status === 'fulfilled' && run.value.locked ? run.value.value : null)), Array.from({ length: 10 }, (_, i) => i), 'each ran under its lock')
})

t.test('the work under an exit lock runs its queries on the lock\'s connection', async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const waited = await waitExitLock(db, 'u1', 'MNQZ6', 1_000, async (connection) => {
    const { rows } = await sql<{ held: boolean }>`
      SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted) AS held`.execute(connection)
    return rows[0]!
  })
  t.ok(waited.locked && waited.value.held, 'waitExitLock: the connection handed over holds the lock')
  const tried = await tryExitLock(db, 'u1', 'MNQZ6', async (connection) => (await sql<{ held: boolean }>`
    SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted) AS held`.execute(connection)).rows[0]!.held)
  t.ok(tried.locked && tried.value, 'tryExitLock: the connection handed over holds the lock')
})

t.test('a stops check\'s try of a free lock never queues behind closes waiting for locks held elsewhere', async (t) => {
  // Four closes wait (up to 20 s) for locks another instance holds; a fill's stops check for another user
  // tries a free lock: it once waited behind them for a turn (the keeper's fills stalled with it).
  const { db } = await build(t, {}, { consumers: false })
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  let held!: () => void
  const holding = new Promise<void>((resolve) => (held = resolve))
  const elsewhere = db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(hashtextextended('exits:' || u || ':MNQZ6', 0)) FROM unnest(${['a', 'b', 'c', 'd']}::text[]) AS u`.execute(connection)
    held()
    await gate
    await sql`SELECT pg_advisory_unlock_all()`.execute(connection)
  })
  await holding
  let closesDone = 0
  const closes = Promise.all(['a', 'b', 'c', 'd'].map((user) => waitExitLock(db, user, 'MNQZ6', 20_000, async () => user).finally(() => closesDone++)))
  await eventually(async () => {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_locks
      WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(db)
    return rows[0]!.waiting === 4
  })
  const tried = await tryExitLock(db, 'e', 'MNQZ6', async () => 'checked')
  t.same(tried, { locked: true, value: 'checked' }, 'the free lock was got')
  t.equal(closesDone, 0, 'while the four closes still wait for theirs')
  release()
  await elsewhere
  t.same((await closes).map((run) => run.locked), [true, true, true, true], 'the closes go on once the locks are let go')
})
