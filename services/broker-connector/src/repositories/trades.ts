import { sql, type Database, type Kysely, type Side, type TradeResult, type TradeStatus } from '@signals/db'

export interface OpenTradeMatch {
  symbol: string
  /** Contract root of the alert's symbol: a result for NQ1! also closes an open NQZ6 trade. */
  root: string | null
  /** Only this user's trades (targeted routing); all users' otherwise. */
  userId?: string
}

export interface OpenTrade {
  id: number
  user_id: string
  symbol: string
  root: string | null
  side: Side
  quantity: string
  entry_price: string
  /** The broker's contract, when the trade was opened from a broker fill. */
  broker_contract_id: number | null
}

export interface TradeClose {
  id: number
  exitPrice: string
  pnl: string
}

/**
 * Locks the open trades a result alert closes, so a concurrent close of the same trade waits and then
 * finds it no longer open. Must run inside a transaction.
 */
export async function lockOpenTrades(trx: Kysely<Database>, match: OpenTradeMatch): Promise<OpenTrade[]> {
  const byRoot = match.root === null ? sql`false` : sql`root = ${match.root}`
  const forUser = match.userId === undefined ? sql`` : sql`AND user_id = ${match.userId}`
  const result = await sql<OpenTrade>`
    SELECT id, user_id, symbol, root, side, quantity, entry_price, broker_contract_id
    FROM trades
    WHERE status = 'open' AND (symbol = ${match.symbol} OR ${byRoot}) ${forUser}
    ORDER BY id
    FOR UPDATE`.execute(trx)
  return result.rows
}

/**
 * Closes the given trades in one statement, each with its own exit price and pnl (exact decimal text).
 * `status = 'open'` makes it conditional: a trade closed meanwhile is left as it is. Returns the ids closed.
 */
export async function closeTrades(
  trx: Kysely<Database>,
  closes: readonly TradeClose[],
  result: TradeResult,
  closeAlertId: string,
): Promise<number[]> {
  if (closes.length === 0) return []
  const ids = closes.map((close) => close.id)
  const exits = closes.map((close) => close.exitPrice)
  const pnls = closes.map((close) => close.pnl)
  const updated = await sql<{ id: number }>`
    UPDATE trades AS t
    SET status = 'closed', result = ${result}, exit_price = c.exit_price, pnl = c.pnl,
        close_alert_id = ${closeAlertId}, closed_at = now()
    FROM unnest(${ids}::bigint[], ${exits}::numeric[], ${pnls}::numeric[]) AS c(id, exit_price, pnl)
    WHERE t.id = c.id AND t.status = 'open'
    RETURNING t.id`.execute(trx)
  return updated.rows.map((row) => row.id)
}

export interface TradePage {
  userId: string
  limit: number
  beforeId?: number
  status?: TradeStatus
}

/** The user's own trades, newest first, optionally of one status. */
export async function listUserTrades(db: Kysely<Database>, page: TradePage) {
  let query = db
    .selectFrom('trades')
    .select([
      'id', 'symbol', 'root', 'side', 'quantity', 'entry_price', 'exit_price', 'status', 'result', 'pnl', 'close_alert_id',
      'opened_at', 'closed_at', 'alert_record_id', 'contract', 'broker_account_id', 'entry_order_id', 'stop_order_id',
      'target_order_id', 'broker_exit_price',
    ])
    .where('user_id', '=', page.userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId)
  if (page.status !== undefined) query = query.where('status', '=', page.status)
  return query.execute()
}
