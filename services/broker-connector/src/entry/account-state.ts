import { deriveAccountState, tradingDayOf, type AccountState, type RiskEngineConfig } from '@signals/risk-engine'
import { rootOf } from '@signals/instruments'
import { sql, type Database, type Kysely } from '@signals/db'

interface TradeRow {
  user_id: string
  root: string | null
  symbol: string
  side: 'LONG' | 'SHORT'
  quantity: string
  entry_price: string
  status: 'open' | 'closed'
  pnl: string | null
  closed_at: Date | null
}

/** What the account state of each user is derived from, read for many users at once. */
export interface AccountRows {
  trades: Map<string, TradeRow[]>
  /** When a hard daily-loss refusal last halted the user, if ever. */
  lastHalt: Map<string, Date>
}

/**
 * The users' open and closed trades, and entries sent in the last minutes whose fill has not opened their
 * trade yet (counted as open: two alerts in quick succession must not both pass the open-trade and
 * pyramiding rules), except the records being decided now; and each user's last hard daily-loss halt.
 */
export async function loadAccountRows(db: Kysely<Database>, userIds: readonly string[], deciding: readonly number[]): Promise<AccountRows> {
  const [trades, halts] = await Promise.all([
    sql<TradeRow>`
      SELECT user_id, root, symbol, side, quantity, entry_price, status, pnl, closed_at FROM trades
      WHERE user_id = ANY(${userIds}::text[]) AND status IN ('open', 'closed')
      UNION ALL
      SELECT a.user_id, a.root, a.symbol, a.action, a.order_quantity::numeric, COALESCE(a.entry_price, 0), 'open', NULL, NULL FROM alerts a
      WHERE a.user_id = ANY(${userIds}::text[]) AND NOT (a.id = ANY(${deciding}::bigint[])) AND a.status IN ('placing', 'placed')
        AND a.send_attempts > 0 AND COALESCE(a.placed_at, a.received_at) > now() - interval '10 minutes'
        AND NOT EXISTS (SELECT 1 FROM trades x WHERE x.alert_record_id = a.id)`.execute(db),
    sql<{ user_id: string; decided_at: Date }>`
      SELECT user_id, max(decided_at) AS decided_at FROM alerts
      WHERE user_id = ANY(${userIds}::text[]) AND refusal_code = 'daily_loss_limit_hard' AND decided_at IS NOT NULL
      GROUP BY user_id`.execute(db),
  ])
  const byUser = new Map<string, TradeRow[]>()
  for (const row of trades.rows) {
    // Appended in place: copying the list for every row made a long history quadratic in time and garbage.
    const rows = byUser.get(row.user_id)
    if (rows) rows.push(row)
    else byUser.set(row.user_id, [row])
  }
  return { trades: byUser, lastHalt: new Map(halts.rows.map((row) => [row.user_id, row.decided_at])) }
}

/** The engine's account state of one user, with the broker's cash balance when the session told one. */
export function accountStateOf(rows: AccountRows, userId: string, config: RiskEngineConfig, cashBalance: string | null, now: Date): AccountState {
  const trades = rows.trades.get(userId) ?? []
  const lastHalt = rows.lastHalt.get(userId)
  return deriveAccountState(
    config,
    {
      brokerBalance: cashBalance,
      closedTrades: trades.flatMap((row) => (row.status === 'closed' && row.pnl !== null && row.closed_at !== null ? [{ pnl: row.pnl, closedAt: row.closed_at }] : [])),
      openTrades: trades
        .filter((row) => row.status === 'open')
        .map((row) => ({ root: row.root ?? rootOf(row.symbol) ?? row.symbol, side: row.side, quantity: row.quantity, entryPrice: row.entry_price })),
      haltedForSession: lastHalt !== undefined && tradingDayOf(lastHalt) === tradingDayOf(now),
    },
    now,
  )
}
