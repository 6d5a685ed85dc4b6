import t from 'tap'
import { sql } from '@signals/db'
import { tryExitLock, waitExitLock } from '../../src/repositories/exit-locks.ts'
import { build } from '../helper.ts'

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
