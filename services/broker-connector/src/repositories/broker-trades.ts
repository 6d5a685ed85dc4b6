import type { BrokerEnvironment, BrokerName } from '@signals/contracts'
import { sql, type Database, type Kysely } from '@signals/db'

/** Where a session's broker ids live: its venue and account (ids are unique only together with these). */
export interface BrokerScope {
  broker: BrokerName
  environment: BrokerEnvironment
  accountId: number
}

/** Which of a user's trades an act reaches: one account's, or (the kill switch) every account's. */
export type TradeScope = BrokerScope | 'every account'

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
 * The record's own legs and its trade are written one transaction at a time (the fill opening the trade, a leg
 * noted placed): otherwise a trade opened while its leg was being noted reads the leg's order as not yet
 * written, and the leg's note finds no trade yet, so the trade would never know that leg.
 */
export async function lockTradeLegs(trx: Kysely<Database>, recordId: number): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended('own-legs-trade:' || ${recordId}::bigint, 0))`.execute(trx)
}

/**
 * The entry order's fill opens the record's trade; a further partial fill of the same entry adds its
 * quantity at the weighted price. A fill already counted (a snapshot after a reconnect repeats it) and a
 * trade already closed change nothing (the keeper gives a fill after the close a part of its own:
 * late-entry-fills.ts). The trade is on its record's broker account (issue 22). Returns the
 * trade id when this call changed it. Its legs: those the fill names, else the record's, else the ones the
 * connector placed itself (own_legs: a ProjectX account refusing brackets, whose legs may be placed before
 * this fill is applied, after a restart).
 */
export async function applyEntryFill(db: Kysely<Database>, fill: EntryFill): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    await lockTradeLegs(trx, fill.recordId)
    return openOrGrowTrade(trx, fill)
  })
}

async function openOrGrowTrade(db: Kysely<Database>, fill: EntryFill): Promise<number | null> {
  const result = await sql<{ id: number }>`
    INSERT INTO trades (user_id, account_id, alert_record_id, symbol, root, side, quantity, entry_price, contract, broker_contract_id,
                        broker, environment, broker_account_id, entry_order_id, stop_order_id, target_order_id, entry_fill_ids, opened_at)
    SELECT a.user_id, a.account_id, a.id, a.symbol, a.root, a.action, ${fill.quantity}, ${fill.price}::numeric, a.contract, ${fill.contractId},
           ${fill.scope.broker}, ${fill.scope.environment}, ${fill.scope.accountId}, ${fill.orderId},
           COALESCE(${fill.stopOrderId}::bigint, a.stop_order_id, (SELECT order_id FROM own_legs WHERE tag = a.order_tag AND leg = 'sl')),
           COALESCE(${fill.targetOrderId}::bigint, a.target_order_id, (SELECT order_id FROM own_legs WHERE tag = a.order_tag AND leg = 'tp')), ARRAY[${fill.fillId}::bigint], ${fill.at}::timestamptz
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

/**
 * Contracts the user holds open broker-backed trades in on the session's account and venue (a hard
 * daily-loss refusal and the watchdog's halt flatten each; the user's trades elsewhere are not this
 * session's), or on every account (the kill switch).
 */
export async function openTradeContracts(db: Kysely<Database>, userId: string, scope: TradeScope): Promise<{ contract: string; broker_contract_id: number }[]> {
  const onAccount =
    scope === 'every account' ? sql`` : sql`AND broker = ${scope.broker} AND environment = ${scope.environment} AND broker_account_id = ${scope.accountId}`
  const result = await sql<{ contract: string; broker_contract_id: number }>`
    SELECT DISTINCT contract, broker_contract_id FROM trades
    WHERE user_id = ${userId} AND status = 'open' AND broker_contract_id IS NOT NULL AND contract IS NOT NULL ${onAccount}`.execute(db)
  return result.rows
}
