import { sql, type Database, type Kysely, type Side, type TradeResult } from '@signals/db'

/** Where a session's broker ids live: its venue and account (ids are unique only together with these). */
export interface BrokerScope {
  broker: 'paper' | 'tradovate'
  environment: 'demo' | 'live'
  accountId: number
}

export interface EntryFill {
  recordId: number
  userId: string
  scope: BrokerScope
  fillId: number
  orderId: number
  contractId: number
  quantity: number
  price: string
  at: string
  stopOrderId: number | null
  targetOrderId: number | null
}

/**
 * The entry order's fill opens the record's trade; a further partial fill of the same entry adds its
 * quantity at the weighted price. A fill already counted (a snapshot after a reconnect repeats it) and a
 * trade already closed change nothing. Returns the trade id when this call changed it.
 */
export async function applyEntryFill(db: Kysely<Database>, fill: EntryFill): Promise<number | null> {
  const result = await sql<{ id: number }>`
    INSERT INTO trades (user_id, alert_record_id, symbol, root, side, quantity, entry_price, contract, broker_contract_id,
                        broker, environment, broker_account_id, entry_order_id, stop_order_id, target_order_id, entry_fill_ids, opened_at)
    SELECT a.user_id, a.id, a.symbol, a.root, a.action, ${fill.quantity}, ${fill.price}::numeric, a.contract, ${fill.contractId},
           ${fill.scope.broker}, ${fill.scope.environment}, ${fill.scope.accountId}, ${fill.orderId}, COALESCE(${fill.stopOrderId}::bigint, a.stop_order_id),
           COALESCE(${fill.targetOrderId}::bigint, a.target_order_id), ARRAY[${fill.fillId}::bigint], ${fill.at}::timestamptz
    FROM alerts a
    WHERE a.id = ${fill.recordId} AND a.user_id = ${fill.userId} AND a.action IS NOT NULL AND a.symbol IS NOT NULL
    ON CONFLICT (alert_record_id) WHERE alert_record_id IS NOT NULL DO UPDATE SET
      entry_price = (trades.entry_price * trades.quantity + EXCLUDED.entry_price * EXCLUDED.quantity) / (trades.quantity + EXCLUDED.quantity),
      quantity = trades.quantity + EXCLUDED.quantity,
      entry_fill_ids = trades.entry_fill_ids || EXCLUDED.entry_fill_ids
    WHERE trades.status = 'open' AND NOT (${fill.fillId}::bigint = ANY(trades.entry_fill_ids))
    RETURNING id`.execute(db)
  return result.rows[0]?.id ?? null
}

export interface ExitTrade {
  id: number
  side: Side
  quantity: string
  entry_price: string
  root: string | null
  symbol: string
  status: 'open' | 'closed' | 'cancelled'
  broker_exit_price: string | null
}

/** The trade a bracket leg of this record closes, locked (inside a transaction). */
export async function lockRecordTrade(trx: Kysely<Database>, recordId: number, userId: string): Promise<ExitTrade | undefined> {
  const result = await sql<ExitTrade>`
    SELECT id, side, quantity, entry_price, root, symbol, status, broker_exit_price FROM trades
    WHERE alert_record_id = ${recordId} AND user_id = ${userId} FOR UPDATE`.execute(trx)
  return result.rows[0]
}

/**
 * Trades a fill in the opposite direction without our tag (a liquidation, a flatten by hand) exits: the
 * user's trades in the contract on the fill's account that are open, or were closed by a result alert a
 * short while ago and still lack the broker's exit; never one opened after the fill, never one of another
 * account or venue (a trade from before venues were recorded counts as the account's). Locked (inside a
 * transaction).
 */
export async function lockTradesExitedBy(
  trx: Kysely<Database>,
  match: { userId: string; scope: BrokerScope; contractId: number; side: Side; at: string },
): Promise<ExitTrade[]> {
  const { broker, environment, accountId } = match.scope
  const result = await sql<ExitTrade>`
    SELECT id, side, quantity, entry_price, root, symbol, status, broker_exit_price FROM trades
    WHERE user_id = ${match.userId} AND broker_contract_id = ${match.contractId} AND side = ${match.side}
      AND (broker_account_id = ${accountId} OR broker_account_id IS NULL)
      AND (broker IS NULL OR (broker = ${broker} AND environment = ${environment}))
      AND opened_at <= ${match.at}::timestamptz
      AND (status = 'open' OR (status = 'closed' AND broker_exit_price IS NULL AND close_alert_id IS NOT NULL
                               AND closed_at > ${match.at}::timestamptz - interval '10 minutes'))
    ORDER BY id FOR UPDATE`.execute(trx)
  return result.rows
}

/** Closes an open trade at the broker's fill: exit and broker exit are the fill price. */
export async function closeTradeAtFill(
  trx: Kysely<Database>,
  close: { id: number; result: TradeResult; price: string; pnl: string; fillId: number; at: string },
): Promise<boolean> {
  const result = await sql`
    UPDATE trades SET status = 'closed', result = ${close.result}, exit_price = ${close.price}::numeric, pnl = ${close.pnl}::numeric,
      closed_at = ${close.at}::timestamptz, broker_exit_price = ${close.price}::numeric, broker_exit_fill_id = ${close.fillId}
    WHERE id = ${close.id} AND status = 'open'`.execute(trx)
  return (result.numAffectedRows ?? 0n) > 0n
}

/** Keeps the broker's exit beside a trade a result alert already closed; never closes it a second time. */
export async function recordBrokerExit(trx: Kysely<Database>, id: number, price: string, fillId: number): Promise<boolean> {
  const result = await sql`
    UPDATE trades SET broker_exit_price = ${price}::numeric, broker_exit_fill_id = ${fillId}
    WHERE id = ${id} AND status = 'closed' AND broker_exit_price IS NULL`.execute(trx)
  return (result.numAffectedRows ?? 0n) > 0n
}

/** Contracts the user holds open trades in (a hard daily-loss refusal flattens each). */
export async function openTradeContracts(db: Kysely<Database>, userId: string): Promise<number[]> {
  const result = await sql<{ id: number }>`
    SELECT DISTINCT broker_contract_id AS id FROM trades
    WHERE user_id = ${userId} AND status = 'open' AND broker_contract_id IS NOT NULL`.execute(db)
  return result.rows.map((row) => row.id)
}
