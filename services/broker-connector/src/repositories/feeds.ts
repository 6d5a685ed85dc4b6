import { sql, type Database, type Kysely } from '@signals/db'

/** The user's sealed broker credentials, or undefined. */
export async function findBrokerCredentials(db: Kysely<Database>, userId: string) {
  return db
    .selectFrom('broker_credentials')
    .select(['broker', 'environment', 'account_id', 'key_id', 'secret_iv', 'secret_tag', 'secret_ciphertext'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** Users whose live trading is on (the partial index `trading_settings_live_users_idx`). */
export async function liveUsers(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ user_id: string }>`
    SELECT user_id FROM trading_settings
    WHERE setting_key = 'live_trading' AND setting_value -> 'enabled' = 'true'::jsonb`.execute(db)
  return result.rows.map((row) => row.user_id)
}

/** Whether the user's live trading is on now. */
export async function isLive(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await sql`
    SELECT 1 FROM trading_settings
    WHERE user_id = ${userId} AND setting_key = 'live_trading' AND setting_value -> 'enabled' = 'true'::jsonb`.execute(db)
  return result.rows.length > 0
}
