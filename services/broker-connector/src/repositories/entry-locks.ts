import { sql, type Database, type Kysely } from '@signals/db'

const recordKey = sql`hashtextextended('entry-record:' || id, 0)`
// One broker account per user today: the account lock is keyed by user (several accounts per user will key it by account).
const accountKey = sql`hashtextextended('entry-account:' || user_id, 0)`

/**
 * Runs `work` with the records this process could lock, on a connection of its own; records another
 * instance (or another task here) holds are left out: theirs to settle. The locks are session advisory
 * locks: they outlive the commits made inside `work` (each send is marked before it happens) and Postgres
 * releases them when the holder's connection dies, so a record whose lock is free and whose status is
 * still `placing` has no live holder and may be reconciled.
 */
export async function withRecordLocks<T>(
  db: Kysely<Database>,
  recordIds: readonly number[],
  work: (connection: Kysely<Database>, locked: number[]) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ id: number }>`
      SELECT id::int AS id FROM unnest(${recordIds}::bigint[]) AS id WHERE pg_try_advisory_lock(${recordKey})`.execute(connection)
    const locked = rows.map((row) => row.id)
    try {
      return await work(connection, locked)
    } finally {
      if (locked.length > 0) await sql`SELECT pg_advisory_unlock(${recordKey}) FROM unnest(${locked}::bigint[]) AS id`.execute(connection)
    }
  })
}

/**
 * One decision at a time per broker account: makes `connection` hold the lock of every account given
 * (keyed by user for now) and returns whether it had to wait for one. Tried first without waiting (the
 * usual case: nobody else is deciding for these accounts); when one is held elsewhere, those taken are let
 * go and all are then waited for in one fixed order (sorted), so two holders never wait on each other.
 * The connection must be one of its own (`withRecordLocks`' is), and whoever holds the locks must not need
 * another pool connection meanwhile: the waiters hold theirs, and with as many waiters as the pool has
 * connections the holder would wait for one until the pool timed it out. So everything read or written
 * under the locks goes on this connection (the entry decision's `PlanContext.db`, passed on to the position
 * difference and a reversal's close). Released by `unlockAccounts`.
 */
export async function lockAccounts(connection: Kysely<Database>, userIds: readonly string[]): Promise<{ waited: boolean }> {
  const users = [...new Set(userIds)].sort()
  if (users.length === 0) return { waited: false }
  const { rows } = await sql<{ user_id: string; got: boolean }>`
    SELECT user_id, pg_try_advisory_lock(${accountKey}) AS got FROM unnest(${users}::text[]) AS user_id`.execute(connection)
  if (rows.every((row) => row.got)) return { waited: false }
  await unlockAccounts(connection, rows.filter((row) => row.got).map((row) => row.user_id))
  // unnest yields the array in order, and each row's lock is taken as the row is produced.
  await sql`SELECT pg_advisory_lock(${accountKey}) FROM unnest(${users}::text[]) AS user_id`.execute(connection)
  return { waited: true }
}

export async function unlockAccounts(connection: Kysely<Database>, userIds: readonly string[]): Promise<void> {
  const users = [...new Set(userIds)]
  if (users.length > 0) await sql`SELECT pg_advisory_unlock(${accountKey}) FROM unnest(${users}::text[]) AS user_id`.execute(connection)
}

/**
 * Runs `work` on a connection of its own holding the account's lock (`lockAccounts`): in turn with the
 * account's entry decisions, so a decision either sees what `work` wrote or was marked before it. `work`
 * reads and writes on `connection` only (`lockAccounts` says why).
 */
export async function withAccountLock<T>(db: Kysely<Database>, userId: string, work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await lockAccounts(connection, [userId])
    try {
      return await work(connection)
    } finally {
      await unlockAccounts(connection, [userId])
    }
  })
}
