import { sql, type Database, type Kysely, type NotificationChannelRow, type NotificationChannelKind } from '@signals/db'
import type { SealedSecret } from '@signals/secrets'

type Db = Kysely<Database>

export async function listChannels(db: Db, userId: string): Promise<NotificationChannelRow[]> {
  return db.selectFrom('notification_channels').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute()
}

export async function findChannel(db: Db, userId: string, id: string): Promise<NotificationChannelRow | undefined> {
  return db.selectFrom('notification_channels').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
}

export async function findChannelById(db: Db, id: string): Promise<NotificationChannelRow | undefined> {
  return db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The user's enabled channels whose filter holds `kind`. */
export async function channelsListening(db: Db, userId: string, kind: string): Promise<NotificationChannelRow[]> {
  return db
    .selectFrom('notification_channels')
    .selectAll()
    .where('user_id', '=', userId)
    .where('enabled', '=', true)
    .where(sql<boolean>`${kind} = ANY(events)`)
    .execute()
}

export interface ChannelFields {
  name: string
  enabled: boolean
  events: string[]
  settings: Record<string, unknown>
  sealed: SealedSecret
}

const columnsOf = (fields: ChannelFields) => ({
  name: fields.name,
  enabled: fields.enabled,
  events: fields.events,
  settings: JSON.stringify(fields.settings),
  key_id: fields.sealed.keyId,
  secret_iv: fields.sealed.iv,
  secret_tag: fields.sealed.tag,
  secret_ciphertext: fields.sealed.ciphertext,
})

export async function insertChannel(db: Db, channel: { id: string; userId: string; kind: NotificationChannelKind } & ChannelFields): Promise<NotificationChannelRow> {
  return db
    .insertInto('notification_channels')
    .values({ id: channel.id, user_id: channel.userId, kind: channel.kind, ...columnsOf(channel) })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Replaces the channel's fields; its send history stays. Undefined when the user has no such channel. */
export async function updateChannel(db: Db, userId: string, id: string, fields: ChannelFields): Promise<NotificationChannelRow | undefined> {
  return db
    .updateTable('notification_channels')
    .set({ ...columnsOf(fields), updated_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

export async function deleteChannel(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('notification_channels').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** Keeps the last send's outcome on the channel, for the trader to see. */
export async function recordChannelOutcome(db: Db, id: string, error: string | null): Promise<void> {
  await db
    .updateTable('notification_channels')
    .set(error === null ? { last_sent_at: sql<Date>`now()` } : { last_failed_at: sql<Date>`now()`, last_error: error })
    .where('id', '=', id)
    .execute()
}
