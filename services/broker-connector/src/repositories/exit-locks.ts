import { sql, type Database, type Kysely } from '@signals/db'
import { ConcurrencyLimit } from '../shared/concurrency-limit.ts'

/**
 * One lock per user and contract for the exits of the position (docs/decisions/targets-breakeven.md, "Stops
 * that do not add up"): the stops check holds it from its look for an exit on its way to its stop's send, the
 * flatten runner from a partial close's (or a source's exit's) reads and cut to its send, so a check never reads
 * the broker between a close's cut and its order. Session advisory locks on a connection of their own (as
 * entry-locks.ts): they outlive the commits made meanwhile, and Postgres lets them go when the holder's
 * connection dies. The work under the lock is handed that connection and runs its queries on it: a holder
 * that also asked the pool for one would need two, and holders filling the pool would wait on each other.
 */
const exitKey = (userId: string, contract: string) => sql`hashtextextended(${`exits:${userId}:${contract}`}, 0)`

/**
 * Exit locks held at once in this process, below the pool's 10 connections (the default of packages/db): each
 * holds its connection for a close's broker requests, and the keeper, the consumers and the runner's own
 * bookkeeping need the rest. Waiting holders (closes) take their turn among 4 before taking a connection;
 * tries (the stops checks, run in the keeper's fill path) have 2 slots of their own and never queue: a try
 * finding none free is skipped as one finding the lock held is (asked again when a close's order ends, or
 * on the next pass), so closes waiting on locks held elsewhere never stall the keeper's fills.
 */
const EXIT_LOCKS_AT_ONCE = 4
const TRIES_AT_ONCE = 2
const holders = new ConcurrencyLimit(EXIT_LOCKS_AT_ONCE)
const tries = new ConcurrencyLimit(TRIES_AT_ONCE)

type Locked<T> = { locked: true; value: T } | { locked: false }

/** Runs `work` holding the lock when it and a try's slot are free now; else runs nothing (`locked: false`). */
export async function tryExitLock<T>(db: Kysely<Database>, userId: string, contract: string, work: (connection: Kysely<Database>) => Promise<T>): Promise<Locked<T>> {
  const ran = await tries.tryRun(() => db.connection().execute(async (connection): Promise<Locked<T>> => {
    const { rows } = await sql<{ got: boolean }>`SELECT pg_try_advisory_lock(${exitKey(userId, contract)}) AS got`.execute(connection)
    if (rows[0]?.got !== true) return { locked: false }
    try {
      return { locked: true, value: await work(connection) }
    } finally {
      await sql`SELECT pg_advisory_unlock(${exitKey(userId, contract)})`.execute(connection)
    }
  }))
  return ran ?? { locked: false }
}

/**
 * Runs `work` holding the lock, waiting for it at most `waitMs` once its turn among the holders has come (its
 * holder, a stops check, lasts a few broker requests); not got by then, runs nothing (`locked: false`).
 */
export async function waitExitLock<T>(db: Kysely<Database>, userId: string, contract: string, waitMs: number, work: (connection: Kysely<Database>) => Promise<T>): Promise<Locked<T>> {
  return holders.run(() => db.connection().execute(async (connection): Promise<Locked<T>> => {
    await sql`SELECT set_config('lock_timeout', ${`${Math.max(Math.round(waitMs), 1)}ms`}, false)`.execute(connection)
    try {
      await sql`SELECT pg_advisory_lock(${exitKey(userId, contract)})`.execute(connection)
    } catch (error) {
      // 55P03 lock_not_available: the wait ran out.
      if ((error as { code?: unknown }).code === '55P03') return { locked: false }
      throw error
    } finally {
      await sql`RESET lock_timeout`.execute(connection)
    }
    try {
      return { locked: true, value: await work(connection) }
    } finally {
      await sql`SELECT pg_advisory_unlock(${exitKey(userId, contract)})`.execute(connection)
    }
  }))
}
