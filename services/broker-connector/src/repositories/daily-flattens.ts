import { sql, type Database, type Kysely, type RowOf } from '@signals/db'

/** An account a flatten pass looks at, with its user (whose session trades it) and its stored risk configuration. */
export type FlattenAccount = RowOf<'account_risk_configs', 'account_id' | 'user_id'> & { risk_config: unknown }

/**
 * Accounts whose risk-engine configuration names a daily flatten time, with that configuration. Only
 * primary accounts: the pass flattens the user's session, which trades the primary (stage 3 keys sessions
 * by account and drops this condition; an additional account's rules must not flatten the primary).
 */
export async function dailyFlattenAccounts(db: Kysely<Database>): Promise<FlattenAccount[]> {
  const { rows } = await sql<FlattenAccount>`
    SELECT r.account_id, r.user_id, r.config AS risk_config
    FROM account_risk_configs r JOIN broker_accounts acc ON acc.id = r.account_id AND acc.is_primary
    WHERE jsonb_typeof(r.config -> 'sessionRules' -> 'dailyFlattenAt') = 'string'`.execute(db)
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

/**
 * Accounts whose configuration asks for a flatten before the news (news blackouts on, flattenBeforeNews on);
 * primary accounts only, as `dailyFlattenAccounts`.
 */
export async function newsFlattenAccounts(db: Kysely<Database>): Promise<FlattenAccount[]> {
  const { rows } = await sql<FlattenAccount>`
    SELECT r.account_id, r.user_id, r.config AS risk_config
    FROM account_risk_configs r JOIN broker_accounts acc ON acc.id = r.account_id AND acc.is_primary
    WHERE r.config -> 'sessionRules' -> 'flattenBeforeNews' = 'true'::jsonb AND r.config -> 'sessionRules' -> 'newsBlackout' = 'true'::jsonb`.execute(db)
  return rows
}

/** The news events whose blackout covers `at`. */
export async function newsEventsInBlackout(db: Kysely<Database>, at: Date): Promise<{ id: number; name: string; at: Date }[]> {
  const { rows } = await sql<{ id: string; name: string; at: Date }>`
    SELECT id::text, name, at FROM news_events
    WHERE at BETWEEN ${at}::timestamptz - interval '1 day' AND ${at}::timestamptz + interval '1 day'
      AND ${at}::timestamptz BETWEEN at - make_interval(mins => minutes_before) AND at + make_interval(mins => minutes_after)
    ORDER BY at`.execute(db)
  return rows.map((row) => ({ ...row, id: Number(row.id) }))
}

/** Claims the user's flatten for a news event: true once, or again when a claim was never marked done a minute on. */
export async function claimNewsFlatten(db: Kysely<Database>, userId: string, eventId: number): Promise<boolean> {
  const { rows } = await sql<{ user_id: string }>`
    INSERT INTO news_flattens (user_id, news_event_id) VALUES (${userId}, ${eventId})
    ON CONFLICT (user_id, news_event_id) DO UPDATE SET claimed_at = now()
      WHERE news_flattens.done_at IS NULL AND news_flattens.claimed_at < now() - interval '1 minute'
    RETURNING user_id`.execute(db)
  return rows.length > 0
}

export async function markNewsFlattenDone(db: Kysely<Database>, userId: string, eventId: number): Promise<void> {
  await sql`UPDATE news_flattens SET done_at = now() WHERE user_id = ${userId} AND news_event_id = ${eventId}`.execute(db)
}
