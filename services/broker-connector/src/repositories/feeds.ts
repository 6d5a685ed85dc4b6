import { sql, type Database, type Kysely } from '@signals/db'

/**
 * A user who may be traded: their primary account's live trading on (the account the session trades), approved and not banned (DESIGN decision 19). A ban or a
 * revocation also switches live trading off, but a feed start never relies on that alone.
 */
const tradable = (user: ReturnType<typeof sql>) => sql`
  SELECT acc.user_id FROM broker_accounts acc
  JOIN users u ON u.user_id = acc.user_id AND u.approved
  WHERE acc.is_primary AND acc.live_trading ${user}
    AND NOT EXISTS (SELECT 1 FROM banned_emails b WHERE b.email = lower(u.email))`

/** Users whose live trading is on and who may trade (the partial index `broker_accounts_live_primary_idx`). */
export async function liveUsers(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ user_id: string }>`${tradable(sql``)}`.execute(db)
  return result.rows.map((row) => row.user_id)
}

/** Whether the user's live trading is on now and they may trade. */
export async function isLive(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await sql`${tradable(sql`AND acc.user_id = ${userId}`)}`.execute(db)
  return result.rows.length > 0
}
