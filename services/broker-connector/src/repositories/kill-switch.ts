import { sql, type Database, type Kysely } from '@signals/db'

export type KillSwitchOutcome = 'done' | 'incomplete' | 'no_session'

/**
 * The primary account's auto-place switched off (the account the session trades; the spec's live_trading
 * setting's `autoPlaceOrders`). Live trading itself stays as it is: the session is what flattens and cancels.
 * It stays off until the trader switches it on again. A trader who never had the setting (no time stamped)
 * has auto-place off already; the setting's time advances as a save's does.
 */
export async function switchAutoPlaceOff(trx: Kysely<Database>, userId: string): Promise<void> {
  await sql`
    UPDATE broker_accounts SET auto_place = false, updated_at = now(),
      switches_updated_at = greatest(clock_timestamp(), switches_updated_at + interval '1 microsecond')
    WHERE user_id = ${userId} AND is_primary AND switches_updated_at IS NOT NULL`.execute(trx)
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
