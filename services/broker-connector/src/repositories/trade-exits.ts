import { sql, type Database, type Kysely, type Side, type TradeResult } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

/** An open trade a broker fill closes (in full or in part), locked. */
export interface ExitTrade {
  id: number
  user_id: string
  side: Side
  quantity: string
  entry_price: string
  root: string | null
  symbol: string
  status: 'open' | 'closed' | 'cancelled'
  /** The result an exit alert asked for (the fill of its flatten gives it). */
  exit_result: TradeResult | null
  stop_order_id: number | null
  target_order_id: number | null
  /** The record that opened it (its several targets follow it), or null. */
  alert_record_id: number | null
}

/** One broker fill, as much of it as goes to one trade. */
export interface ExitFill {
  id: number
  orderId: number
  price: string
  at: string
}

const EXIT_TRADE = sql`t.id, t.user_id, t.side, t.quantity, t.entry_price, t.root, t.symbol, t.status, t.exit_result, t.stop_order_id, t.target_order_id, t.alert_record_id::int AS alert_record_id`

/** The trade a bracket leg of this record closes, locked (inside a transaction). */
export async function lockRecordTrade(trx: Kysely<Database>, recordId: number, userId: string): Promise<ExitTrade | undefined> {
  const result = await sql<ExitTrade>`
    SELECT ${EXIT_TRADE} FROM trades t WHERE t.alert_record_id = ${recordId} AND t.user_id = ${userId} FOR UPDATE`.execute(trx)
  return result.rows[0]
}

/** Trades of the fill's account and venue (a trade from before venues were recorded counts as the account's). */
const inScope = (scope: BrokerScope) =>
  sql`(t.broker_account_id = ${scope.accountId} OR t.broker_account_id IS NULL) AND (t.broker IS NULL OR (t.broker = ${scope.broker} AND t.environment = ${scope.environment}))`

/**
 * The open trades a fill without our tag reduces (our liquidation, a trader's own order): the user's trades
 * in the contract on the fill's account and venue, on the side the fill closes, opened no later than the
 * fill, oldest first. Locked.
 */
export async function lockOpenTradesOf(
  trx: Kysely<Database>,
  match: { userId: string; scope: BrokerScope; contractId: number; side: Side; at: string },
): Promise<ExitTrade[]> {
  const result = await sql<ExitTrade>`
    SELECT ${EXIT_TRADE} FROM trades t
    WHERE t.user_id = ${match.userId} AND t.broker_contract_id = ${match.contractId} AND t.side = ${match.side} AND t.status = 'open'
      AND ${inScope(match.scope)} AND t.opened_at <= ${match.at}::timestamptz
    -- Trades an exit asked to close take its fill first (a source's closing order leaves the others open).
    ORDER BY t.exit_requested_at IS NULL, t.opened_at, t.id FOR UPDATE`.execute(trx)
  return result.rows
}

/**
 * Contracts of the fill already allocated to the user's trades on its venue and account (a fill replayed
 * from a snapshot: all of it). Fill ids are the broker's, unique only within a venue.
 */
export async function allocatedOf(trx: Kysely<Database>, owner: { userId: string; scope: BrokerScope }, fillId: number): Promise<number> {
  const result = await sql<{ quantity: number }>`
    SELECT COALESCE(sum(f.quantity), 0)::int AS quantity FROM trade_exit_fills f JOIN trades t ON t.id = f.trade_id
    WHERE f.user_id = ${owner.userId} AND f.fill_id = ${fillId} AND ${inScope(owner.scope)}`.execute(trx)
  return result.rows[0]?.quantity ?? 0
}

/** A part of the trade already closed by the same order (its earlier fills), locked. */
async function lockPartOf(trx: Kysely<Database>, tradeId: number, orderId: number) {
  const result = await sql<{ id: number; quantity: string; exit_price: string; pnl: string }>`
    SELECT id, quantity, exit_price, pnl FROM trades WHERE parent_trade_id = ${tradeId} AND exit_order_id = ${orderId} AND status = 'closed'
    FOR UPDATE`.execute(trx)
  return result.rows[0]
}

async function recordFill(trx: Kysely<Database>, tradeId: number, userId: string, fill: ExitFill, quantity: number): Promise<void> {
  await sql`
    INSERT INTO trade_exit_fills (fill_id, trade_id, user_id, order_id, quantity, price, filled_at)
    VALUES (${fill.id}, ${tradeId}, ${userId}, ${fill.orderId}, ${quantity}, ${fill.price}::numeric, ${fill.at}::timestamptz)`.execute(trx)
}

/**
 * Closes the whole (rest of the) trade at the fill. A part the same order closed before (an order filled in
 * pieces) is folded back in: one closed trade at the weighted price of the order's fills, pnl their sum.
 */
export async function closeWhole(trx: Kysely<Database>, trade: ExitTrade, fill: ExitFill, result: TradeResult, pnl: string): Promise<void> {
  const part = await lockPartOf(trx, trade.id, fill.orderId)
  if (part) {
    await sql`UPDATE trade_exit_fills SET trade_id = ${trade.id} WHERE trade_id = ${part.id}`.execute(trx)
    await sql`DELETE FROM trades WHERE id = ${part.id}`.execute(trx)
  }
  const partQuantity = part?.quantity ?? '0'
  const exit = sql`(${partQuantity}::numeric * ${part?.exit_price ?? '0'}::numeric + t.quantity * ${fill.price}::numeric) / (${partQuantity}::numeric + t.quantity)`
  await sql`
    UPDATE trades t SET status = 'closed', result = ${result}, exit_price = ${exit}, broker_exit_price = ${exit},
      pnl = ${pnl}::numeric + ${part?.pnl ?? '0'}::numeric, quantity = t.quantity + ${partQuantity}::numeric, closed_at = ${fill.at}::timestamptz,
      broker_exit_fill_id = ${fill.id}, exit_order_id = ${fill.orderId}, exit_note = NULL
    WHERE t.id = ${trade.id} AND t.status = 'open'`.execute(trx)
  await recordFill(trx, trade.id, trade.user_id, fill, Number(trade.quantity))
}

/**
 * Closes `quantity` of the trade at the fill: a closed part (a trade of its own, `parent_trade_id` the
 * trade; the same order's later fills join it at the weighted price), and the trade keeps the rest open.
 */
export async function closePart(trx: Kysely<Database>, trade: ExitTrade, fill: ExitFill, quantity: number, result: TradeResult, pnl: string): Promise<void> {
  const part = await lockPartOf(trx, trade.id, fill.orderId)
  let partId: number
  if (part) {
    const exit = sql`(quantity * exit_price + ${quantity}::numeric * ${fill.price}::numeric) / (quantity + ${quantity}::numeric)`
    await sql`
      UPDATE trades SET exit_price = ${exit}, broker_exit_price = ${exit}, pnl = pnl + ${pnl}::numeric, quantity = quantity + ${quantity}::numeric,
        closed_at = ${fill.at}::timestamptz, broker_exit_fill_id = ${fill.id}
      WHERE id = ${part.id}`.execute(trx)
    partId = part.id
  } else {
    const inserted = await sql<{ id: number }>`
      INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, exit_price, status, result, pnl, close_alert_id, opened_at, closed_at,
                          contract, broker_contract_id, broker_account_id, broker_exit_price, broker_exit_fill_id, exit_requested_at, exit_result,
                          signal_exit_price, parent_trade_id, exit_order_id)
      SELECT user_id, symbol, root, side, ${quantity}, entry_price, ${fill.price}::numeric, 'closed', ${result}, ${pnl}::numeric, close_alert_id,
             opened_at, ${fill.at}::timestamptz, contract, broker_contract_id, broker_account_id, ${fill.price}::numeric, ${fill.id},
             exit_requested_at, exit_result, signal_exit_price, id, ${fill.orderId}
      FROM trades WHERE id = ${trade.id}
      RETURNING id`.execute(trx)
    partId = inserted.rows[0]!.id
  }
  await sql`UPDATE trades SET quantity = quantity - ${quantity}::numeric WHERE id = ${trade.id}`.execute(trx)
  await recordFill(trx, partId, trade.user_id, fill, quantity)
}

/** Contracts of an order's fills that closed the trade or its parts (a bracket leg's filled quantity). */
export async function filledOnTrade(db: Kysely<Database>, tradeId: number, orderId: number): Promise<number> {
  const result = await sql<{ quantity: number }>`
    SELECT COALESCE(sum(f.quantity), 0)::int AS quantity FROM trade_exit_fills f JOIN trades t ON t.id = f.trade_id
    WHERE f.order_id = ${orderId} AND (t.id = ${tradeId} OR t.parent_trade_id = ${tradeId})`.execute(db)
  return result.rows[0]?.quantity ?? 0
}

/** Says on the trade what could not be done at the broker (a leg not resized or not cancelled). */
export async function noteTrade(db: Kysely<Database>, tradeId: number, note: string): Promise<void> {
  await sql`UPDATE trades SET exit_note = ${note} WHERE id = ${tradeId}`.execute(db)
}
