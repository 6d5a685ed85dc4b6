import { randomUUID } from 'node:crypto'
import { sql, type Database, type FeedCommandAction, type FeedCommandRow, type Kysely, type Transaction } from '@signals/db'

/** Queues a command in the caller's transaction: it exists if and only if the change that caused it commits. */
export async function enqueueFeedCommand(
  trx: Transaction<Database>,
  command: { userId: string; action: FeedCommandAction; reason: string },
): Promise<FeedCommandRow> {
  return trx
    .insertInto('feed_commands')
    .values({
      command_id: `feed-${command.action}-${randomUUID()}`,
      user_id: command.userId,
      action: command.action,
      reason: command.reason.slice(0, 255),
      requested_at: sql<Date>`clock_timestamp()`,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Serialises publishers of one user's commands (request path and relay, on any instance) for the rest of
 * `trx`. `wait: false` returns false at once when another holds it.
 */
export async function lockUserFeedCommands(trx: Transaction<Database>, userId: string, wait: boolean): Promise<boolean> {
  const key = sql`hashtextextended(${`feed-commands:${userId}`}, 0)`
  if (wait) {
    await sql`SELECT pg_advisory_xact_lock(${key})`.execute(trx)
    return true
  }
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(${key}) AS locked`.execute(trx)
  return rows[0]?.locked === true
}

/** The user's unpublished commands, oldest first (the order they must reach the connector in). */
export async function unpublishedCommands(trx: Transaction<Database>, userId: string): Promise<FeedCommandRow[]> {
  return trx
    .selectFrom('feed_commands')
    .selectAll()
    .where('user_id', '=', userId)
    .where('published_at', 'is', null)
    .orderBy('id')
    .execute()
}

export async function markPublished(trx: Transaction<Database>, id: number): Promise<void> {
  await trx.updateTable('feed_commands').set({ published_at: sql<Date>`clock_timestamp()` }).where('id', '=', id).execute()
}

/** Users with anything left to publish, for the relay. */
export async function usersWithUnpublishedCommands(db: Kysely<Database>, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('feed_commands')
    .select('user_id')
    .distinct()
    .where('published_at', 'is', null)
    .limit(limit)
    .execute()
  return rows.map((row) => row.user_id)
}

export async function isPublished(db: Kysely<Database>, id: number): Promise<boolean> {
  const row = await db.selectFrom('feed_commands').select('published_at').where('id', '=', id).executeTakeFirst()
  return row?.published_at != null
}

/** Deletes commands published before `publishedBefore` (the connector has long had them); returns how many. */
export async function purgePublishedCommands(db: Kysely<Database>, publishedBefore: Date): Promise<number> {
  const result = await db.deleteFrom('feed_commands').where('published_at', '<', publishedBefore).executeTakeFirst()
  return Number(result.numDeletedRows)
}
