import { sql, type Database, type Kysely } from '@signals/db'

/** Users whose risk-engine configuration names a daily flatten time, with their stored configuration. */
export async function dailyFlattenUsers(db: Kysely<Database>): Promise<{ user_id: string; risk_config: unknown }[]> {
  const { rows } = await sql<{ user_id: string; risk_config: unknown }>`
    SELECT user_id, config AS risk_config FROM risk_engine_configs
    WHERE jsonb_typeof(config -> 'sessionRules' -> 'dailyFlattenAt') = 'string'`.execute(db)
  return rows
}

/**
 * Claims the user's daily flatten of a trading day: true once per day, or again when an earlier claim was
 * never marked done a minute on (its instance stopped mid-flatten).
 */
export async function claimDailyFlatten(db: Kysely<Database>, userId: string, tradingDay: string, flattenAt: string): Promise<boolean> {
  const { rows } = await sql<{ user_id: string }>`
    INSERT INTO daily_flattens (user_id, trading_day, flatten_at) VALUES (${userId}, ${tradingDay}::date, ${flattenAt})
    ON CONFLICT (user_id, trading_day) DO UPDATE SET claimed_at = now()
      WHERE daily_flattens.done_at IS NULL AND daily_flattens.claimed_at < now() - interval '1 minute'
    RETURNING user_id`.execute(db)
  return rows.length > 0
}

export async function markDailyFlattenDone(db: Kysely<Database>, userId: string, tradingDay: string): Promise<void> {
  await sql`UPDATE daily_flattens SET done_at = now() WHERE user_id = ${userId} AND trading_day = ${tradingDay}::date`.execute(db)
}
