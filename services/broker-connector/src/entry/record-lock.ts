import { sql, type Database, type Kysely } from '@signals/db'

/**
 * Runs `work` while this process holds the record's lock, on a connection of its own; returns undefined
 * at once when another instance (or another task here) holds it. The lock is a session advisory lock: it
 * outlives the commits made inside `work` (the send is marked before it happens) and is released by
 * Postgres when the holder's connection dies, so a record whose lock is free and whose status is still
 * `placing` has no live holder and may be reconciled.
 */
export async function withRecordLock<T>(
  db: Kysely<Database>,
  recordId: number,
  work: (connection: Kysely<Database>) => Promise<T>,
): Promise<T | undefined> {
  const key = sql`hashtextextended(${`entry-record:${recordId}`}, 0)`
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${key}) AS locked`.execute(connection)
    if (rows[0]?.locked !== true) return undefined
    try {
      return await work(connection)
    } finally {
      await sql`SELECT pg_advisory_unlock(${key})`.execute(connection)
    }
  })
}
