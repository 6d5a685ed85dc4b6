import { sql, type Database, type Kysely } from '@signals/db'

export type KillSwitchOutcome = 'done' | 'incomplete' | 'no_session'

/**
 * Auto-place switched off (live trading itself stays as it is: the session is what flattens and cancels).
 * It stays off until the trader switches it on again. A user with no live-trading setting has auto-place off already.
 */
export async function switchAutoPlaceOff(trx: Kysely<Database>, userId: string): Promise<void> {
  await sql`
    UPDATE trading_settings SET setting_value = jsonb_set(setting_value, '{autoPlaceOrders}', 'false'::jsonb), updated_at = now()
    WHERE user_id = ${userId} AND setting_key = 'live_trading'`.execute(trx)
}

/** A use of the kill switch, pending until the broker's part is done. */
export async function recordKillSwitch(trx: Kysely<Database>, userId: string): Promise<{ id: number; requested_at: Date }> {
  const row = await trx.insertInto('kill_switch_events').values({ user_id: userId }).returning(['id', 'requested_at']).executeTakeFirstOrThrow()
  return { id: Number(row.id), requested_at: row.requested_at }
}

/**
 * The broker's part of a use is done (or could not be): its outcome is kept, and the trader's notification
 * channels are told (`kill_switch`; `record_notification_event` writes nothing for a trader without one).
 */
export async function finishKillSwitch(db: Kysely<Database>, id: number, outcome: KillSwitchOutcome, detail: string): Promise<{ finished_at: Date | null }> {
  const row = await db
    .updateTable('kill_switch_events')
    .set({ outcome, detail, finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .returning(['user_id', 'finished_at'])
    .executeTakeFirstOrThrow()
  const details = JSON.stringify({ killSwitchId: id, outcome, reason: `kill switch ${outcome.replace('_', ' ')}: ${detail}` })
  await sql`SELECT record_notification_event(${row.user_id}, 'kill_switch', ${`kill_switch:${id}`}, ${details}::jsonb)`.execute(db)
  return { finished_at: row.finished_at }
}

/** The user's latest uses of the kill switch, newest first. */
export async function recentKillSwitches(db: Kysely<Database>, userId: string, limit: number) {
  return db.selectFrom('kill_switch_events').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(limit).execute()
}
