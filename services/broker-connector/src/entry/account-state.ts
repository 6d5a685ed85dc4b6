import { deriveAccountState, tradingDayOf, type AccountState, type ClosedTradingDay, type OpenTradeState, type RiskEngineConfig } from '@signals/risk-engine'
import { rootOf } from '@signals/instruments'
import { sql, type Database, type Kysely } from '@signals/db'

/** What the account state of each user is derived from, read for many users at once. */
export interface AccountRows {
  openTrades: Map<string, OpenTradeState[]>
  /** The user's closed trades summed per trading day: bounded by days traded, not by trades. */
  closedDays: Map<string, ClosedTradingDay[]>
  /** When a hard daily-loss refusal last halted the user, if ever. */
  lastHalt: Map<string, Date>
}

/**
 * The users' account rows for deciding the records `deciding`: open trades, and entries sent in the last
 * minutes whose fill has not opened their trade yet (counted as open: two alerts in quick succession must
 * not both pass the open-trade and pyramiding rules), except the records being decided now; closed trades
 * as Postgres sums them per trading day; and each user's last hard daily-loss halt.
 */
export async function loadAccountRows(db: Kysely<Database>, userIds: readonly string[], deciding: readonly number[]): Promise<AccountRows> {
  const [open, days, halts] = await Promise.all([loadOpenTrades(db, userIds, deciding), loadClosedDays(db, userIds), loadLastHalts(db, userIds)])
  return { openTrades: open, closedDays: days, lastHalt: halts }
}

/**
 * An entry this batch is about to send counts as open for the account's next entry in the same batch, as
 * a later batch would count it once marked (`loadOpenTrades`' second half).
 */
export function countAsOpen(rows: AccountRows, record: { user_id: string; root: string | null; symbol: string | null; action: 'LONG' | 'SHORT' | null; entry_price: string | null }, quantity: number): void {
  if (record.action === null) return
  const symbol = record.symbol ?? ''
  const trade: OpenTradeState = { root: record.root ?? rootOf(symbol) ?? symbol, side: record.action, quantity, entryPrice: record.entry_price ?? '0' }
  rows.openTrades.set(record.user_id, [...(rows.openTrades.get(record.user_id) ?? []), trade])
}

/** The engine's account state of one user, with the broker's cash balance when the session told one. */
export function accountStateOf(rows: AccountRows, userId: string, config: RiskEngineConfig, cashBalance: string | null, now: Date): AccountState {
  const lastHalt = rows.lastHalt.get(userId)
  return deriveAccountState(
    config,
    {
      brokerBalance: cashBalance,
      closedDays: rows.closedDays.get(userId) ?? [],
      openTrades: rows.openTrades.get(userId) ?? [],
      haltedForSession: lastHalt !== undefined && tradingDayOf(lastHalt) === tradingDayOf(now),
    },
    now,
  )
}

async function loadOpenTrades(db: Kysely<Database>, userIds: readonly string[], deciding: readonly number[]): Promise<Map<string, OpenTradeState[]>> {
  const { rows } = await sql<{ user_id: string; root: string | null; symbol: string; side: 'LONG' | 'SHORT'; quantity: string; entry_price: string }>`
    SELECT user_id, root, symbol, side, quantity, entry_price FROM trades
    WHERE user_id = ANY(${userIds}::text[]) AND status = 'open'
    UNION ALL
    SELECT a.user_id, a.root, a.symbol, a.action, a.order_quantity::numeric, COALESCE(a.entry_price, 0) FROM alerts a
    WHERE a.user_id = ANY(${userIds}::text[]) AND NOT (a.id = ANY(${deciding}::bigint[])) AND a.status IN ('placing', 'placed')
      AND a.send_attempts > 0 AND COALESCE(a.placed_at, a.received_at) > now() - interval '10 minutes'
      AND NOT EXISTS (SELECT 1 FROM trades x WHERE x.alert_record_id = a.id)`.execute(db)
  return groupByUser(rows, (row) => ({ root: row.root ?? rootOf(row.symbol) ?? row.symbol, side: row.side, quantity: row.quantity, entryPrice: row.entry_price }))
}

/**
 * One row per user and CME trading day (`cme_trading_day`, the twin of `tradingDayOf`): the day's pnl, the
 * highest running total of all the user's pnl after one of its closes, and its W/L run, closes in time
 * order (ties by id). The same as `closedTradingDays` over the trades.
 */
async function loadClosedDays(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, ClosedTradingDay[]>> {
  // Per user (LATERAL), so each walk is an index-only scan already in close order: no sort of every trade.
  const { rows } = await sql<{ user_id: string; day: string; pnl: string; highest_running_pnl: string; results: string }>`
    SELECT u.user_id, d.day::text, d.pnl::text, d.highest_running_pnl::text, d.results
    FROM unnest(${userIds}::text[]) AS u(user_id)
    CROSS JOIN LATERAL (
      SELECT cme_trading_day(closed_at) AS day, sum(pnl) AS pnl, max(running) AS highest_running_pnl,
             string_agg(CASE WHEN pnl > 0 THEN 'W' ELSE 'L' END, '' ORDER BY closed_at, id) AS results
      FROM (
        SELECT closed_at, id, pnl, sum(pnl) OVER (ORDER BY closed_at, id) AS running FROM trades
        WHERE user_id = u.user_id AND status = 'closed'
      ) AS closed
      GROUP BY 1
    ) AS d`.execute(db)
  return groupByUser(rows, (row) => ({ day: row.day, pnl: row.pnl, highestRunningPnl: row.highest_running_pnl, results: row.results }))
}

async function loadLastHalts(db: Kysely<Database>, userIds: readonly string[]): Promise<Map<string, Date>> {
  const { rows } = await sql<{ user_id: string; decided_at: Date }>`
    SELECT user_id, max(decided_at) AS decided_at FROM alerts
    WHERE user_id = ANY(${userIds}::text[]) AND refusal_code = 'daily_loss_limit_hard' AND decided_at IS NOT NULL
    GROUP BY user_id`.execute(db)
  return new Map(rows.map((row) => [row.user_id, row.decided_at]))
}

function groupByUser<Row extends { user_id: string }, Item>(rows: readonly Row[], item: (row: Row) => Item): Map<string, Item[]> {
  const byUser = new Map<string, Item[]>()
  for (const row of rows) {
    const items = byUser.get(row.user_id)
    if (items) items.push(item(row))
    else byUser.set(row.user_id, [item(row)])
  }
  return byUser
}
