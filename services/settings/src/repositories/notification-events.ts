import { sql, type Database, type Kysely, type Transaction } from '@signals/db'

export interface PendingNotificationEvent {
  id: number
  user_id: string
  kind: string
  event_key: string
  details: unknown
  occurred_at: Date
}

/** Unpublished events, oldest first, locked for this transaction (another instance skips them). */
export async function lockUnpublishedEvents(trx: Transaction<Database>, limit: number): Promise<PendingNotificationEvent[]> {
  return trx
    .selectFrom('notification_events')
    .select(['id', 'user_id', 'kind', 'event_key', 'details', 'occurred_at'])
    .where('published_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute()
}

export async function markEventsPublished(db: Kysely<Database> | Transaction<Database>, ids: number[]): Promise<void> {
  if (ids.length === 0) return
  await db.updateTable('notification_events').set({ published_at: sql<Date>`now()` }).where('id', 'in', ids).execute()
}
