import { randomUUID } from 'node:crypto'
import { sql, type Database, type Kysely } from '@signals/db'

/**
 * A ban or a revocation ends trading (DESIGN decision 19): live trading is switched off on every account of
 * the user (the primary's switch is the spec's live_trading setting, its time advanced as a save's; auto-place
 * kept) and a `stop` feed command is queued in the caller's transaction (the settings service's outbox relay
 * publishes it; the command exists if and only if the change commits). Returns whether trading was on.
 */
export async function switchLiveTradingOff(trx: Kysely<Database>, userId: string, reason: string): Promise<boolean> {
  const switched = await sql<{ id: string }>`
    UPDATE broker_accounts
    SET live_trading = false, updated_at = now(),
        switches_updated_at = CASE WHEN is_primary THEN greatest(clock_timestamp(), switches_updated_at + interval '1 microsecond') ELSE switches_updated_at END
    WHERE user_id = ${userId} AND live_trading
    RETURNING id`.execute(trx)
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
