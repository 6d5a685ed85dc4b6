import { sql, type Database, type Kysely, type RowOf, type Side, type TradeResult, type TradeStatus } from '@signals/db'
import { inSourceReach } from './spec-route-reach.ts'

export interface OpenTradeMatch {
  symbol: string
  /** Contract root of the alert's symbol: a result for NQ1! also closes an open NQZ6 trade. */
  root: string | null
  /** Only this user's trades (targeted routing); all users' otherwise. */
  userId?: string
  /** Only trades of this side (`exit_long` closes longs); both when null. */
  side?: Side | null
  /** Only trades whose entry alert came up to this time (a later entry is a new signal the exit does not close). */
  receivedBy?: string
  /**
   * Only trades opened by entries of this signal source (issue 22); null: of the spec's route (no source),
   * trades without an entry record included unless their trader opted out of it. Undefined: any.
   */
  sourceId?: string | null
}

/** An open trade a result alert closes; `broker_contract_id` and `contract` (`MNQZ6`) when opened from a broker fill. */
export type OpenTrade = RowOf<'trades', 'id' | 'user_id' | 'symbol' | 'root' | 'side' | 'quantity' | 'entry_price' | 'broker_contract_id' | 'contract'>

export interface TradeClose {
  id: number
  exitPrice: string
  pnl: string
}

/** The alert's symbol or root, the user and the side, as SQL conditions on `t` (trades) and `a` (alerts). */
function matchSql(match: OpenTradeMatch, table: 't' | 'a', sideColumn: 'side' | 'action') {
  const ref = (column: string) => sql.ref(`${table}.${column}`)
  const byRoot = match.root === null ? sql`false` : sql`${ref('root')} = ${match.root}`
  const forUser = match.userId === undefined ? sql`` : sql`AND ${ref('user_id')} = ${match.userId}`
  const onSide = match.side === undefined || match.side === null ? sql`` : sql`AND ${ref(sideColumn)} = ${match.side}`
  // The entry record is `a` in both uses (lockOpenTrades joins it to the trade).
  const ofSource = match.sourceId === undefined ? sql`` : sql`AND ${inSourceReach({ id: match.sourceId }, `${table}.user_id`)}`
  return sql`(${ref('symbol')} = ${match.symbol} OR ${byRoot}) ${forUser} ${onSide} ${ofSource}`
}

/**
 * Locks the open trades a result alert closes, so a concurrent close of the same trade waits and then
 * finds it no longer open. A trade opened by an entry alert received after the exit is not among them.
 * Must run inside a transaction.
 */
export async function lockOpenTrades(trx: Kysely<Database>, match: OpenTradeMatch): Promise<OpenTrade[]> {
  const entered = match.receivedBy === undefined ? sql`` : sql`AND (a.received_at IS NULL OR a.received_at <= ${match.receivedBy}::timestamptz)`
  const result = await sql<OpenTrade>`
    SELECT t.id, t.user_id, t.symbol, t.root, t.side, t.quantity, t.entry_price, t.broker_contract_id, t.contract
    FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id
    WHERE t.status = 'open' AND ${matchSql(match, 't', 'side')} ${entered}
    ORDER BY t.id
    FOR UPDATE OF t`.execute(trx)
  return result.rows
}

/**
 * Closes the given trades in one statement, each with its own exit price and pnl (exact decimal text); the
 * alert's price is also their signal's exit. `status = 'open'` makes it conditional: a trade closed
 * meanwhile is left as it is. Returns the ids closed.
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
    SET status = 'closed', result = ${result}, exit_price = c.exit_price, signal_exit_price = c.exit_price, pnl = c.pnl,
        close_alert_id = ${closeAlertId}, closed_at = now()
    FROM unnest(${ids}::bigint[], ${exits}::numeric[], ${pnls}::numeric[]) AS c(id, exit_price, pnl)
    WHERE t.id = c.id AND t.status = 'open'
    RETURNING t.id`.execute(trx)
  return updated.rows.map((row) => row.id)
}

export interface ExitRequest {
  alertId: string
  result: TradeResult
  /** The alert's exit price, or null when it carried none. */
  signalExitPrice: string | null
}

/**
 * Broker-backed trades an exit alert asks to close: they stay open (the broker holds them until the
 * flatten fills) with the alert's result and price kept. The first exit asked stands; a later one changes
 * nothing on the trade. Returns the ids asked now.
 */
export async function requestTradeExits(trx: Kysely<Database>, ids: readonly number[], exit: ExitRequest): Promise<number[]> {
  if (ids.length === 0) return []
  const updated = await sql<{ id: number }>`
    UPDATE trades SET exit_requested_at = now(), exit_result = ${exit.result}, signal_exit_price = ${exit.signalExitPrice}::numeric,
      close_alert_id = ${exit.alertId}, exit_note = NULL
    WHERE id = ANY(${ids}::bigint[]) AND status = 'open' AND exit_requested_at IS NULL
    RETURNING id`.execute(trx)
  return updated.rows.map((row) => row.id)
}

/**
 * Entries an exit alert must stop: the matching records sent to the broker before the exit whose trade has
 * not opened (a limit entry still working), as (user, contract). Records of the last day only (entries
 * are day orders).
 */
export async function workingEntryContracts(trx: Kysely<Database>, match: OpenTradeMatch & { receivedBy: string }): Promise<{ user_id: string; contract: string }[]> {
  const result = await sql<{ user_id: string; contract: string }>`
    SELECT DISTINCT a.user_id, a.contract FROM alerts a
    WHERE a.status IN ('placing', 'placed') AND NOT a.is_test AND a.contract IS NOT NULL AND ${matchSql(match, 'a', 'action')}
      AND a.received_at <= ${match.receivedBy}::timestamptz AND a.received_at > ${match.receivedBy}::timestamptz - interval '1 day'
      AND NOT EXISTS (SELECT 1 FROM trades x WHERE x.alert_record_id = a.id)`.execute(trx)
  return result.rows
}

/**
 * Matching entries received before the exit and not sent yet are not placed at all: the exit came first.
 * (One sent meanwhile is `placing` and is among the working entries the flatten cancels.)
 */
export async function stopUnsentEntries(trx: Kysely<Database>, match: OpenTradeMatch & { receivedBy: string }): Promise<number> {
  const result = await sql`
    UPDATE alerts a SET status = 'not_placed', decided_at = now(),
      reason = 'not placed: an exit alert for ' || ${match.symbol} || ' came before this entry could be sent'
    WHERE a.status = 'received' AND a.send_attempts = 0 AND NOT a.is_test AND ${matchSql(match, 'a', 'action')}
      AND a.received_at <= ${match.receivedBy}::timestamptz`.execute(trx)
  return Number(result.numAffectedRows ?? 0n)
}

export interface TradePage {
  userId: string
  limit: number
  beforeId?: number
  status?: TradeStatus
  /** Only trades of this broker account of the user's. */
  accountId?: string
}

/** The user's own trades, newest first, optionally of one status and one of their accounts. */
export async function listUserTrades(db: Kysely<Database>, page: TradePage) {
  let query = db
    .selectFrom('trades')
    .select([
      'id', 'account_id', 'symbol', 'root', 'side', 'quantity', 'entry_price', 'exit_price', 'status', 'result', 'pnl', 'close_alert_id',
      'opened_at', 'closed_at', 'alert_record_id', 'contract', 'broker_account_id', 'entry_order_id', 'stop_order_id',
      'target_order_id', 'broker_exit_price', 'signal_exit_price', 'exit_requested_at', 'exit_note', 'parent_trade_id',
      'close_reason',
    ])
    .where('user_id', '=', page.userId)
    .orderBy('id', 'desc')
    .limit(page.limit)
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId)
  if (page.status !== undefined) query = query.where('status', '=', page.status)
  if (page.accountId !== undefined) query = query.where('account_id', '=', page.accountId)
  return query.execute()
}
