import { deriveAccountState, tradingDayOf, type AccountState, type RiskEngineConfig } from '@signals/risk-engine'
import { rootOf } from '@signals/instruments'
import { sql, type Database, type Kysely } from '@signals/db'

interface TradeRow {
  root: string | null
  symbol: string
  side: 'LONG' | 'SHORT'
  quantity: string
  entry_price: string
  status: 'open' | 'closed'
  pnl: string | null
  closed_at: Date | null
}

/**
 * The account state sizing reads: the user's open and closed trades (and entries still waiting for their
 * fill), the broker's cash balance when the session told one, and whether a hard daily-loss refusal
 * already halted this trading session.
 */
export async function accountStateOf(
  db: Kysely<Database>,
  userId: string,
  /** The record being sized: not one of its own pending entries. */
  recordId: number,
  config: RiskEngineConfig,
  cashBalance: string | null,
  now: Date,
): Promise<AccountState> {
  const [trades, halted] = await Promise.all([
    // An entry sent in the last minutes whose fill has not opened its trade yet counts as open: two alerts
    // in quick succession must not both pass the open-trade and pyramiding rules.
    sql<TradeRow>`
      SELECT root, symbol, side, quantity, entry_price, status, pnl, closed_at FROM trades
      WHERE user_id = ${userId} AND status IN ('open', 'closed')
      UNION ALL
      SELECT a.root, a.symbol, a.action, a.order_quantity::numeric, COALESCE(a.entry_price, 0), 'open', NULL, NULL FROM alerts a
      WHERE a.user_id = ${userId} AND a.id <> ${recordId} AND a.status IN ('placing', 'placed') AND a.send_attempts > 0
        AND COALESCE(a.placed_at, a.received_at) > now() - interval '10 minutes'
        AND NOT EXISTS (SELECT 1 FROM trades x WHERE x.alert_record_id = a.id)`.execute(db),
    sql<{ decided_at: Date }>`
      SELECT decided_at FROM alerts
      WHERE user_id = ${userId} AND refusal_code = 'daily_loss_limit_hard' AND decided_at IS NOT NULL
      ORDER BY decided_at DESC LIMIT 1`.execute(db),
  ])
  const rows = trades.rows
  const lastHalt = halted.rows[0]?.decided_at
  return deriveAccountState(
    config,
    {
      brokerBalance: cashBalance,
      closedTrades: rows.flatMap((row) => (row.status === 'closed' && row.pnl !== null && row.closed_at !== null ? [{ pnl: row.pnl, closedAt: row.closed_at }] : [])),
      openTrades: rows
        .filter((row) => row.status === 'open')
        .map((row) => ({ root: row.root ?? rootOf(row.symbol) ?? row.symbol, side: row.side, quantity: row.quantity, entryPrice: row.entry_price })),
      haltedForSession: lastHalt !== undefined && tradingDayOf(lastHalt) === tradingDayOf(now),
    },
    now,
  )
}
