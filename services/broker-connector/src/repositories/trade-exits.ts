import { sql, type Database, type Kysely, type RowOf, type Side, type TradeResult } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

/**
 * An open trade a broker fill closes (in full or in part), locked: `exit_result` is the result an exit alert
 * asked for (the fill of its flatten gives it); `alert_record_id` the record that opened it (its several
 * targets follow it), or null.
 */
export type ExitTrade = RowOf<'trades', (typeof EXIT_TRADE)[number]>

/** One broker fill, as much of it as goes to one trade. */
export interface ExitFill {
  id: number
  orderId: number
  price: string
  at: string
}

const EXIT_TRADE = ['id', 'user_id', 'side', 'quantity', 'entry_price', 'root', 'symbol', 'status', 'exit_result', 'stop_order_id', 'target_order_id', 'alert_record_id'] as const

/** The trade a bracket leg of this record closes, locked (inside a transaction). */
export async function lockRecordTrade(trx: Kysely<Database>, recordId: number, userId: string): Promise<ExitTrade | undefined> {
  return trx.selectFrom('trades').select(EXIT_TRADE).where('alert_record_id', '=', recordId).where('user_id', '=', userId).forUpdate().executeTakeFirst()
}

/** Trades of the fill's account and venue (a trade from before venues were recorded counts as the account's). */
const inScope = (scope: BrokerScope) =>
  sql<boolean>`(t.broker_account_id = ${scope.accountId} OR t.broker_account_id IS NULL) AND (t.broker IS NULL OR (t.broker = ${scope.broker} AND t.environment = ${scope.environment}))`

/**
 * The order in which a fill without our tag (a partial close's, a source's exit's, the trader's own) reaches
 * the trades `t`: those an exit asked to close first (a source's closing order leaves the others open), then
 * first in, first out. A close cuts the exits of the trades it will reach in the same order (exit-targets.ts):
 * cut in another order, its fill would close a trade whose exits were not cut and leave the cut one short.
 */
export const closingOrder = sql`t.exit_requested_at IS NULL, t.opened_at, t.id`

/**
 * The open trades a fill without our tag reduces (our liquidation, a trader's own order): the user's trades
 * in the contract on the fill's account and venue, on the side the fill closes, opened no later than the
 * fill, oldest first. Locked.
 */
export async function lockOpenTradesOf(
  trx: Kysely<Database>,
  match: { userId: string; scope: BrokerScope; contractId: number; side: Side; at: string },
): Promise<ExitTrade[]> {
  return (
    trx
      .selectFrom('trades as t')
      .select(EXIT_TRADE)
      .where('t.user_id', '=', match.userId)
      .where('t.broker_contract_id', '=', match.contractId)
      .where('t.side', '=', match.side)
      .where('t.status', '=', 'open')
      .where(inScope(match.scope))
      .where('t.opened_at', '<=', sql<Date>`${match.at}::timestamptz`)
      .orderBy(closingOrder)
      .forUpdate()
      .execute()
  )
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
  return trx
    .selectFrom('trades')
    .select(['id', 'quantity', 'exit_price', 'pnl'])
    .where('parent_trade_id', '=', tradeId)
    .where('exit_order_id', '=', orderId)
    .where('status', '=', 'closed')
    .forUpdate()
    .executeTakeFirst()
}

async function recordFill(trx: Kysely<Database>, tradeId: number, userId: string, fill: ExitFill, quantity: number): Promise<void> {
  await trx
    .insertInto('trade_exit_fills')
    .values({ fill_id: fill.id, trade_id: tradeId, user_id: userId, order_id: fill.orderId, quantity, price: fill.price, filled_at: fill.at })
    .execute()
}

/**
 * Closes the whole (rest of the) trade at the fill. A part the same order closed before (an order filled in
 * pieces) is folded back in: one closed trade at the weighted price of the order's fills, pnl their sum.
 */
export async function closeWhole(trx: Kysely<Database>, trade: ExitTrade, fill: ExitFill, result: TradeResult, pnl: string): Promise<void> {
  const part = await lockPartOf(trx, trade.id, fill.orderId)
  if (part) {
    await trx.updateTable('trade_exit_fills').set({ trade_id: trade.id }).where('trade_id', '=', part.id).execute()
    await trx.deleteFrom('trades').where('id', '=', part.id).execute()
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
 * trade, on its account; the same order's later fills join it at the weighted price), and the trade keeps the rest open.
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
      INSERT INTO trades (user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, status, result, pnl, close_alert_id, opened_at, closed_at,
                          contract, broker_contract_id, broker_account_id, broker_exit_price, broker_exit_fill_id, exit_requested_at, exit_result,
                          signal_exit_price, parent_trade_id, exit_order_id)
      SELECT user_id, account_id, symbol, root, side, ${quantity}, entry_price, ${fill.price}::numeric, 'closed', ${result}, ${pnl}::numeric, close_alert_id,
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
  await db.updateTable('trades').set({ exit_note: note }).where('id', '=', tradeId).execute()
}
