import { sql, type Database, type Kysely, type NotificationDeliveryRow } from '@signals/db'
import type { NotificationEvent } from '@signals/contracts'

type Db = Kysely<Database>

/** One pending delivery per channel; an event seen again (a redelivered message) adds none. */
export async function addDeliveries(db: Db, channelIds: string[], event: NotificationEvent): Promise<number> {
  if (channelIds.length === 0) return 0
  const rows = channelIds.map((channelId) => ({
    channel_id: channelId,
    user_id: event.userId,
    event_id: event.eventId,
    kind: event.kind,
    title: event.title,
    text: event.text,
    occurred_at: event.occurredAt,
  }))
  const result = await db
    .insertInto('notification_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['channel_id', 'event_id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0)
}

/**
 * Takes up to `limit` due deliveries and pushes their next attempt `leaseMs` ahead, so another
 * instance (or the next pass) leaves them alone while they are being sent.
 */
export async function claimDueDeliveries(db: Db, limit: number, leaseMs: number): Promise<NotificationDeliveryRow[]> {
  return db
    .updateTable('notification_deliveries')
    .set({ next_attempt_at: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`, attempts: sql<number>`attempts + 1` })
    .where(
      'id',
      'in',
      db
        .selectFrom('notification_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('next_attempt_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute()
}

export async function markDelivered(db: Db, id: number): Promise<void> {
  await db.updateTable('notification_deliveries').set({ status: 'sent', sent_at: sql<Date>`now()`, last_error: null }).where('id', '=', id).execute()
}

/** Another attempt after `delayMs`, or none (`delayMs` null): the delivery has failed for good. */
export async function markAttemptFailed(db: Db, id: number, error: string, delayMs: number | null): Promise<void> {
  await db
    .updateTable('notification_deliveries')
    .set(
      delayMs === null
        ? { status: 'failed', last_error: error }
        : { last_error: error, next_attempt_at: sql<Date>`now() + ${delayMs} * interval '1 millisecond'` },
    )
    .where('id', '=', id)
    .execute()
}

export async function recentDeliveries(db: Db, userId: string, limit: number): Promise<NotificationDeliveryRow[]> {
  return db.selectFrom('notification_deliveries').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute()
}
