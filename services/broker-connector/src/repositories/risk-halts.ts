import { sql, type Database, type Kysely } from '@signals/db'

/** A user the risk watchdog looks at: open trades at the broker not yet on their way out. */
export interface WatchedAccount {
  user_id: string
  risk_config: unknown
}

/**
 * Users with an open broker trade not yet asked to exit and no flatten pending (a pending one is being
 * carried out, with its own retries). An index on the open broker trades keeps it cheap when none are.
 */
export async function watchedAccounts(db: Kysely<Database>): Promise<WatchedAccount[]> {
  const result = await sql<WatchedAccount>`
    SELECT u.user_id, r.config AS risk_config
    FROM (SELECT DISTINCT user_id FROM trades WHERE status = 'open' AND broker_contract_id IS NOT NULL AND exit_requested_at IS NULL) AS u
    LEFT JOIN risk_engine_configs r ON r.user_id = u.user_id
    WHERE NOT EXISTS (SELECT 1 FROM flatten_requests f WHERE f.user_id = u.user_id AND f.done_at IS NULL)`.execute(db)
  return result.rows
}

/** The session halted by the risk watchdog, with what was breached (read with the hard daily-loss refusals). */
export async function recordHalt(db: Kysely<Database>, halt: { userId: string; code: 'daily_loss_limit_hard' | 'drawdown_floor'; reason: string; openPnl: string }): Promise<void> {
  await db.insertInto('risk_halts').values({ user_id: halt.userId, code: halt.code, reason: halt.reason, open_pnl: halt.openPnl }).execute()
}

/** The user's open trades not yet asked to exit keep why the platform closes them. */
export async function noteCloseReason(db: Kysely<Database>, userId: string, reason: string): Promise<void> {
  await db
    .updateTable('trades')
    .set({ close_reason: reason })
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .where('exit_requested_at', 'is', null)
    .execute()
}

/** The equity seen now raises the user's recorded peak (never lowers it). */
export async function raiseEquityPeak(db: Kysely<Database>, userId: string, equity: string): Promise<void> {
  await db
    .insertInto('equity_peaks')
    .values({ user_id: userId, peak: equity })
    .onConflict((conflict) =>
      conflict
        .column('user_id')
        .doUpdateSet({ peak: (eb) => eb.ref('excluded.peak'), reached_at: sql<Date>`now()` })
        .where('excluded.peak', '>', (eb) => eb.ref('equity_peaks.peak')),
    )
    .execute()
}
