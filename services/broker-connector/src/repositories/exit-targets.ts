import { sql, type Database, type Kysely, type RowOf, type Side } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'
import { closingOrder } from './trade-exits.ts'
import { inSourceReach, inSpecRouteReach } from './spec-route-reach.ts'

/** What a flatten acts on: one user's contract, one side (or either), for entries received up to a time. */
export interface ExitScope {
  userId: string
  /** The session's account and venue: the user's trades elsewhere are not this session's to close. */
  account: BrokerScope
  contractId: number
  side: Side | null
  /** Entries received up to this time are the exit's (later ones are new signals). */
  signalAt: Date
  /** The exit's source (`id` null: the spec route): its trades and entries only. Absent: every source's. */
  source?: { id: string | null } | undefined
}

/**
 * Our open trade in the contract that a flatten closes, with its bracket legs and the record it entered by
 * (its several targets carry its tag), or null; `late`: not yet asked to exit (its entry filled after the
 * exit was written).
 */
export type TargetTrade = RowOf<'trades', 'id' | 'side' | 'quantity' | 'stop_order_id' | 'target_order_id' | 'alert_record_id'> & RowOf<'alerts', 'size_multiplier'> & { late: boolean }

/** A trade is the exit's when its entry came up to the exit (a trade without a record: opened by then). */
const enteredBy = (signalAt: Date) => sql`(CASE WHEN a.id IS NULL THEN t.opened_at ELSE a.received_at END) <= ${signalAt.toISOString()}::timestamptz`
const onSide = (side: Side | null) => (side === null ? sql`` : sql`AND t.side = ${side}`)
/** The record `a` (none: the spec route's, unless the trader opted out of it) is of the exit's source. */
const ofSource = (source: ExitScope['source'], userColumn: 't.user_id' | 'a.user_id') =>
  source === undefined ? sql`` : sql`AND ${inSourceReach(source, userColumn)}`

/** Our open trades in the contract the exit closes, on the session's account, in the order a close's fill reaches them (closingOrder). */
export async function targetTrades(db: Kysely<Database>, scope: ExitScope): Promise<TargetTrade[]> {
  const result = await sql<TargetTrade>`
    SELECT t.id, t.side, t.quantity, t.stop_order_id, t.target_order_id, t.alert_record_id::int AS alert_record_id, t.exit_requested_at IS NULL AS late, a.size_multiplier
    FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id
    WHERE t.user_id = ${scope.userId} AND t.broker_contract_id = ${scope.contractId} AND t.status = 'open' ${onSide(scope.side)}
      AND t.broker = ${scope.account.broker} AND t.environment = ${scope.account.environment} AND t.broker_account_id = ${scope.account.accountId}
      AND ${enteredBy(scope.signalAt)} ${ofSource(scope.source, 't.user_id')}
    ORDER BY ${closingOrder}`.execute(db)
  return result.rows
}

/**
 * Contracts of the user's open trades on the account in the contract, on the side, that another source's
 * entries (or the spec route's) opened: what a source's exit must leave at the broker.
 */
export async function otherSourcesQuantity(db: Kysely<Database>, scope: ExitScope & { source: { id: string | null }; side: Side }): Promise<number> {
  const notOurs = scope.source.id === null ? sql`NOT ${inSpecRouteReach('t.user_id')}` : sql`a.source_id IS DISTINCT FROM ${scope.source.id}::uuid`
  const result = await sql<{ quantity: number }>`
    SELECT COALESCE(sum(t.quantity), 0)::int AS quantity
    FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id
    WHERE t.user_id = ${scope.userId} AND t.broker_contract_id = ${scope.contractId} AND t.status = 'open' AND t.side = ${scope.side}
      AND t.broker = ${scope.account.broker} AND t.environment = ${scope.account.environment} AND t.broker_account_id = ${scope.account.accountId}
      AND ${notOurs}`.execute(db)
  return result.rows[0]?.quantity ?? 0
}

/**
 * Trades of the exit's entries that opened after the exit was written (a limit entry filling meanwhile, a
 * daily-loss flatten's trades) are asked to exit too, with the exit's result and price.
 */
export async function requestLateExits(
  db: Kysely<Database>,
  tradeIds: readonly number[],
  exit: { alertId: string | null; result: string; signalExitPrice: string | null },
): Promise<void> {
  if (tradeIds.length === 0) return
  await sql`
    UPDATE trades SET exit_requested_at = now(), exit_result = ${exit.result}, signal_exit_price = ${exit.signalExitPrice}::numeric,
      close_alert_id = COALESCE(${exit.alertId}, close_alert_id)
    WHERE id = ANY(${tradeIds}::bigint[]) AND status = 'open' AND exit_requested_at IS NULL`.execute(db)
}

/**
 * Whether an entry of the exit's records may still be working at the broker: one sent (placing, placed)
 * within the day whose trade has not filled its whole order (no trade yet, or the trade and its closed
 * parts below the quantity ordered). Saves asking the broker for its orders when none can be.
 */
export async function mayHaveWorkingEntries(db: Kysely<Database>, scope: ExitScope & { contract: string }): Promise<boolean> {
  const action = scope.side === null ? sql`` : sql`AND a.action = ${scope.side}`
  const result = await sql`
    SELECT 1 FROM alerts a
    WHERE a.user_id = ${scope.userId} AND a.contract = ${scope.contract} AND a.status IN ('placing', 'placed') ${action}
      AND a.received_at <= ${scope.signalAt.toISOString()}::timestamptz AND a.received_at > ${scope.signalAt.toISOString()}::timestamptz - interval '1 day'
      AND NOT EXISTS (
        SELECT 1 FROM trades x WHERE x.alert_record_id = a.id
          AND x.quantity + COALESCE((SELECT sum(c.quantity) FROM trades c WHERE c.parent_trade_id = x.id), 0) >= a.order_quantity)
    LIMIT 1`.execute(db)
  return result.rows.length > 0
}

/**
 * Of these records of the user, those received up to the exit and of its source (their working entries are
 * the exit's to cancel; another source's are left working).
 */
export async function recordsEnteredBy(db: Kysely<Database>, scope: Pick<ExitScope, 'userId' | 'signalAt' | 'source'>, recordIds: readonly number[]): Promise<Set<number>> {
  if (recordIds.length === 0) return new Set()
  const result = await sql<{ id: number }>`
    SELECT a.id::int AS id FROM alerts a
    WHERE a.id = ANY(${recordIds}::bigint[]) AND a.user_id = ${scope.userId} AND a.received_at <= ${scope.signalAt.toISOString()}::timestamptz ${ofSource(scope.source, 'a.user_id')}`.execute(db)
  return new Set(result.rows.map((row) => row.id))
}

/** The record says its entry order was cancelled by the exit (it stays `placed`: the order was at the broker). */
export async function noteEntriesCancelled(db: Kysely<Database>, recordIds: readonly number[]): Promise<void> {
  if (recordIds.length === 0) return
  await sql`
    UPDATE alerts SET reason = 'the entry order was cancelled by an exit alert before it filled'
    WHERE id = ANY(${recordIds}::bigint[]) AND status IN ('placing', 'placed')`.execute(db)
}
