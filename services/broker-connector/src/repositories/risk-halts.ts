import { sql, type ColumnOf, type Database, type Kysely, type RowOf } from '@signals/db'
import type { BrokerScope, TradeScope } from './broker-trades.ts'
import { accountOfRow } from './record-account.ts'

/** An account the risk watchdog looks at: open trades at the broker not yet on their way out. */
export type WatchedAccount = RowOf<'trades', 'user_id'> & {
  /** The trader's account the trades are on (`broker_accounts.id`; the primary's while only the primary trades). */
  account_id: string
  /** Where those trades are: the user's session watches them only when it is of this account and venue. */
  scope: BrokerScope
  /** The account's stored risk-engine configuration, or null (defaults apply). */
  risk_config: ColumnOf<'account_risk_configs', 'config'> | null
}

/**
 * Accounts (the trader's account, at a broker, environment and broker account) with an open broker trade
 * not yet asked to exit, whose user has no flatten pending (a pending one is being carried out, with its own
 * retries), each with its account's risk configuration. The account is the trade's (accountOfRow: taken
 * before the DISTINCT, so a trade without one and a trade with its primary make one watched account, not
 * two). An index on the open broker trades keeps it cheap when none are.
 */
export async function watchedAccounts(db: Kysely<Database>): Promise<WatchedAccount[]> {
  const result = await sql<WatchedAccount>`
    SELECT u.user_id, u.account_id,
           json_build_object('broker', u.broker, 'environment', u.environment, 'accountId', u.broker_account_id) AS scope, r.config AS risk_config
    FROM (
      SELECT DISTINCT t.user_id, ${accountOfRow('t')} AS account_id, t.broker, t.environment, t.broker_account_id::int AS broker_account_id FROM trades t
      WHERE t.status = 'open' AND t.broker_contract_id IS NOT NULL AND t.exit_requested_at IS NULL
        AND t.broker IS NOT NULL AND t.environment IS NOT NULL AND t.broker_account_id IS NOT NULL
    ) AS u
    LEFT JOIN account_risk_configs r ON r.account_id = u.account_id
    WHERE NOT EXISTS (SELECT 1 FROM flatten_requests f WHERE f.user_id = u.user_id AND f.done_at IS NULL)`.execute(db)
  return result.rows
}

/** The session halted by the risk watchdog, with what was breached (read with the hard daily-loss refusals). */
export async function recordHalt(db: Kysely<Database>, halt: { userId: string; code: 'daily_loss_limit_hard' | 'drawdown_floor'; reason: string; openPnl: string }): Promise<void> {
  await db.insertInto('risk_halts').values({ user_id: halt.userId, code: halt.code, reason: halt.reason, open_pnl: halt.openPnl }).execute()
}

/** The user's open trades on the account (or every account) not yet asked to exit keep why the platform closes them. */
export async function noteCloseReason(db: Kysely<Database>, userId: string, scope: TradeScope, reason: string): Promise<void> {
  const open = db.updateTable('trades').set({ close_reason: reason }).where('user_id', '=', userId).where('status', '=', 'open').where('exit_requested_at', 'is', null)
  const onAccount =
    scope === 'every account' ? open : open.where('broker', '=', scope.broker).where('environment', '=', scope.environment).where('broker_account_id', '=', scope.accountId)
  await onAccount.execute()
}

/** Of these entry records, the user's (an order's tag names its record; the record names its user). */
export async function entryRecordsOf(db: Kysely<Database>, userId: string, recordIds: readonly number[]): Promise<Set<number>> {
  if (recordIds.length === 0) return new Set()
  const rows = await db.selectFrom('alerts').select('id').where('id', 'in', recordIds).where('user_id', '=', userId).execute()
  return new Set(rows.map((row) => Number(row.id)))
}

/** Entry records whose working orders a halt cancelled say so (they stay `placed`: the order was at the broker). */
export async function noteEntriesHalted(db: Kysely<Database>, recordIds: readonly number[], reason: string): Promise<void> {
  if (recordIds.length === 0) return
  await db
    .updateTable('alerts')
    .set({ reason })
    .where('id', 'in', recordIds)
    .where('status', 'in', ['placing', 'placed'])
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
