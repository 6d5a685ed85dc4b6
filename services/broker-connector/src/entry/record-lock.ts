import { sql, type Database, type Kysely } from '@signals/db'

const keyOf = sql`hashtextextended('entry-record:' || id, 0)`

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
      SELECT id::int AS id FROM unnest(${recordIds}::bigint[]) AS id WHERE pg_try_advisory_lock(${keyOf})`.execute(connection)
    const locked = rows.map((row) => row.id)
    try {
      return await work(connection, locked)
    } finally {
      if (locked.length > 0) await sql`SELECT pg_advisory_unlock(${keyOf}) FROM unnest(${locked}::bigint[]) AS id`.execute(connection)
    }
  })
}
