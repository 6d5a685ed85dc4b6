import { randomUUID } from 'node:crypto'
import { sql, type Database, type Kysely } from '@signals/db'

/**
 * A ban or a revocation ends trading (DESIGN decision 19): the user's live trading is switched off and a
 * `stop` feed command is queued in the caller's transaction (the settings service's outbox relay
 * publishes it; the command exists if and only if the change commits). Returns whether trading was on.
 */
export async function switchLiveTradingOff(trx: Kysely<Database>, userId: string, reason: string): Promise<boolean> {
  const switched = await sql<{ user_id: string }>`
    UPDATE trading_settings
    SET setting_value = setting_value || jsonb_build_object('enabled', false), updated_at = now()
    WHERE user_id = ${userId} AND setting_key = 'live_trading' AND setting_value -> 'enabled' = 'true'::jsonb
    RETURNING user_id`.execute(trx)
  if (switched.rows.length === 0) return false
  await trx
    .insertInto('feed_commands')
    .values({
      command_id: `feed-stop-${randomUUID()}`,
      user_id: userId,
      action: 'stop',
      reason: reason.slice(0, 255),
      requested_at: sql<Date>`clock_timestamp()`,
    })
    .execute()
  return true
}
