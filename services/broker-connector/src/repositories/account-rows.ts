import type { ClosedTradingDay, NewsEvent, OpenTradeState, SessionCounts } from '@signals/risk-engine'
import { rootOf } from '@signals/instruments'
import { sql, type ColumnOf, type Database, type Kysely, type Trade } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'
import { OUTCOME_UNKNOWN } from './entry-records.ts'

/** What the account state of each user is derived from, read for many users at once. */
export interface AccountRows {
  openTrades: Map<string, OpenTradeState[]>
  /** The user's closed trades summed per trading day: bounded by days traded, not by trades. */
  closedDays: Map<string, ClosedTradingDay[]>
  /** When a hard daily-loss refusal or the risk watchdog last halted the user, if ever (the watchdog says why). */
  lastHalt: Map<string, { at: Date; reason: string | null }>
  /** The highest equity the risk watchdog saw (an intraday_unrealized floor trails it). */
  equityPeak: Map<string, string>
  /** The dated contracts the user's open trades on the session's account are in (the broker positions whose open pnl counts). */
  heldContracts: Map<string, HeldContract[]>
  /** The session rules' view at `at`: the news events whose blackout may cover it, and each user's entries and executions of its trading day. */
  session: SessionDay
}

interface SessionDay {
  /** The instant the session rules judge (the connector's clock; tests set it). */
  at: Date
  news: NewsEvent[]
  counts: Map<string, SessionCounts>
}

/** A contract the user's open trades are in, as the broker names it. */
export interface HeldContract {
  contract: string
  contractId: number
  /** Contract root (`MNQ`): its point value prices the position. */
  root: string
}

/**
 * The users' account rows for deciding the records `deciding`, in one statement (it is read under the
 * accounts' locks, on the lock holder's connection: one round trip, not three): open trades, and entries
 * sent in the last minutes whose fill has not opened their trade yet, and those whose entry order the broker
 * still lists as working (`working`: a GTC limit or a stop entry resting for hours), however old (counted as
 * open: two alerts in quick succession, or an entry while another rests, must not both pass the open-trade
 * and pyramiding rules), except the records being decided now; closed trades as Postgres sums them per trading day; and each user's last hard daily-loss halt.
 * The contracts whose open pnl counts are those of the user's open trades on the account and venue of the
 * session deciding (`scopes`; a user without one holds none here): a trade of the user's on another account
 * or venue does not make this account's position in its contract ours. Decimals travel as text inside the
 * JSON, never as JSON numbers.
 */
export async function loadAccountRows(
  db: Kysely<Database>,
  userIds: readonly string[],
  deciding: readonly number[],
  scopes: ReadonlyMap<string, BrokerScope>,
  at: Date = new Date(),
  working: readonly number[] = [],
): Promise<AccountRows> {
  // Stays raw (json_agg of tuples, LATERAL walks, DISTINCT ON, unnest): each tuple's columns are typed from
  // Database; decimals travel as text (their Selectable type), instants as epoch milliseconds, sums and counts as computed.
  const { rows } = await sql<{
    open: [Trade['user_id'], Trade['root'], Trade['symbol'], Trade['side'], Trade['quantity'], Trade['entry_price'], boolean][]
    days: [Trade['user_id'], string, string, string, string][]
    halts: [ColumnOf<'risk_halts', 'user_id'>, number, ColumnOf<'risk_halts', 'reason'> | null][]
    held: [Trade['user_id'], NonNullable<Trade['contract']>, NonNullable<Trade['broker_contract_id']>, string][]
    peaks: [ColumnOf<'equity_peaks', 'user_id'>, ColumnOf<'equity_peaks', 'peak'>][]
    counts: [Trade['user_id'], number, number][]
    news: [ColumnOf<'news_events', 'name'>, number, ColumnOf<'news_events', 'minutes_before'>, ColumnOf<'news_events', 'minutes_after'>][]
  }>`
    SELECT
      (SELECT COALESCE(json_agg(json_build_array(o.user_id, o.root, o.symbol, o.side, o.quantity::text, o.entry_price::text, o.unconfirmed)), '[]'::json) FROM (${openTrades(userIds, deciding, working)}) AS o) AS open,
      (SELECT COALESCE(json_agg(json_build_array(d.user_id, d.day::text, d.pnl::text, d.highest_running_pnl::text, d.results)), '[]'::json) FROM (${closedDays(userIds)}) AS d) AS days,
      (SELECT COALESCE(json_agg(json_build_array(h.user_id, (extract(epoch FROM h.halted_at) * 1000)::float8, h.reason)), '[]'::json) FROM (${lastHalts(userIds)}) AS h) AS halts,
      (SELECT COALESCE(json_agg(json_build_array(c.user_id, c.contract, c.broker_contract_id, c.root)), '[]'::json) FROM (${heldContracts(scopes)}) AS c) AS held,
      (SELECT COALESCE(json_agg(json_build_array(p.user_id, p.peak::text)), '[]'::json) FROM equity_peaks p WHERE p.user_id = ANY(${userIds}::text[])) AS peaks,
      (SELECT COALESCE(json_agg(json_build_array(c.user_id, c.entries, c.executions)), '[]'::json) FROM (${sessionCounts(userIds, deciding, at)}) AS c) AS counts,
      (SELECT COALESCE(json_agg(json_build_array(n.name, (extract(epoch FROM n.at) * 1000)::float8, n.minutes_before, n.minutes_after)), '[]'::json) FROM (${newsAround(at)}) AS n) AS news`.execute(db)
  const row = rows[0] ?? { open: [], days: [], halts: [], held: [], peaks: [], counts: [], news: [] }
  return {
    openTrades: groupByUser(row.open, ([, root, symbol, side, quantity, entryPrice, unconfirmed]) => ({ root: root ?? rootOf(symbol) ?? symbol, side, quantity, entryPrice, ...(unconfirmed ? { unconfirmed } : {}) })),
    closedDays: groupByUser(row.days, ([, day, pnl, highestRunningPnl, results]) => ({ day, pnl, highestRunningPnl, results })),
    lastHalt: new Map(row.halts.map(([userId, at, reason]) => [userId, { at: new Date(at), reason }])),
    equityPeak: new Map(row.peaks),
    heldContracts: groupByUser(row.held, ([, contract, contractId, root]) => ({ contract, contractId, root: rootOf(root) ?? root })),
    session: {
      at,
      news: row.news.map(([name, eventAt, minutesBefore, minutesAfter]) => ({ name, at: new Date(eventAt), minutesBefore, minutesAfter })),
      counts: new Map(row.counts.map(([userId, entries, executions]) => [userId, { entries, executions }])),
    },
  }
}

function openTrades(userIds: readonly string[], deciding: readonly number[], working: readonly number[]) {
  return sql`
    SELECT t.user_id, t.root, t.symbol, t.side,
      -- An entry filled in part whose order (or its rest sent at the market) still works counts as the whole
      -- order: the position may still grow to it. The record's quantity bounds the rest (limit-to-market).
      CASE WHEN t.alert_record_id = ANY(${working}::bigint[]) OR EXISTS (${restOnItsWay(sql`t.alert_record_id`)})
        THEN GREATEST(t.quantity, COALESCE(a.order_quantity, 0)) ELSE t.quantity END,
      t.entry_price, false AS unconfirmed
    FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id
    WHERE t.user_id = ANY(${userIds}::text[]) AND t.status = 'open'
      -- The trade of a record being decided is its own (a limit's part filled, its rest re-sized at the market).
      AND (t.alert_record_id IS NULL OR NOT (t.alert_record_id = ANY(${deciding}::bigint[])))
    UNION ALL
    SELECT a.user_id, a.root, a.symbol, a.action, COALESCE(l.market_quantity, a.order_quantity)::numeric, COALESCE(a.entry_price, 0), a.status = 'failed'
    FROM alerts a LEFT JOIN limit_entry_timeouts l ON l.record_id = a.id
    WHERE a.user_id = ANY(${userIds}::text[]) AND NOT (a.id = ANY(${deciding}::bigint[]))
      -- A record failed "outcome unknown" may still have its order land (held at the broker past the grace): the
      -- outcome watch then turns it placed, so it counts as open as one placing does (model seed 1916258657).
      AND (a.status IN ('placing', 'placed') OR (a.status = 'failed' AND a.refusal_code = ${OUTCOME_UNKNOWN}))
      AND a.send_attempts > 0
      AND NOT EXISTS (SELECT 1 FROM trades x WHERE x.alert_record_id = a.id)
      AND CASE
        WHEN ${restMayFill('l')} THEN true
        -- A limit's rest sent at the market, its pass done over ten minutes ago: while the broker lists it working.
        WHEN l.market_tag IS NOT NULL THEN a.id = ANY(${working}::bigint[])
        -- A limit entry cancelled at its limit_timeout unfilled is no longer working.
        WHEN l.cancelled THEN false
        -- Sent lately, or still working at the broker.
        ELSE COALESCE(a.placed_at, a.received_at) > now() - interval '10 minutes' OR a.id = ANY(${working}::bigint[])
      END`
}

/** The record's limit entry timeout row whose rest may still fill (`restMayFill`), if any. */
function restOnItsWay(recordId: ReturnType<typeof sql>) {
  return sql`SELECT 1 FROM limit_entry_timeouts l WHERE l.record_id = ${recordId} AND ${restMayFill('l')}`
}

/**
 * A limit entry's rest (sent at the market) that may still fill, judged on its `limit_entry_timeouts` row
 * (`alias`; false when the row is absent): its conversion under way (the cancel asked, the pass not done:
 * the rest may still be sent), or the rest claimed to go at the market (`market_tag`, written before it goes
 * out) and its pass not done or done within ten minutes (as an entry from its sending).
 */
function restMayFill(alias: string) {
  const column = (name: string) => sql.ref(`${alias}.${name}`)
  return sql`((${column('cancel_asked_at')} IS NOT NULL AND ${column('done_at')} IS NULL)
    OR (${column('market_tag')} IS NOT NULL AND (${column('done_at')} IS NULL OR ${column('done_at')} > now() - interval '10 minutes')))`
}

/**
 * One row per user and CME trading day (`cme_trading_day`, the twin of `tradingDayOf`): the day's pnl, the
 * highest running total of all the user's pnl after one of its closes, and its W/L run, closes in time
 * order (ties by id). The same as `closedTradingDays` over the trades.
 */
function closedDays(userIds: readonly string[]) {
  // Per user (LATERAL), so each walk is an index-only scan already in close order: no sort of every trade.
  return sql`
    SELECT u.user_id, d.day, d.pnl, d.highest_running_pnl, d.results
    FROM unnest(${userIds}::text[]) AS u(user_id)
    CROSS JOIN LATERAL (
      SELECT cme_trading_day(closed_at) AS day, sum(pnl) AS pnl, max(running) AS highest_running_pnl,
             string_agg(CASE WHEN pnl > 0 THEN 'W' ELSE 'L' END, '' ORDER BY closed_at, id) AS results
      FROM (
        SELECT closed_at, id, pnl, sum(pnl) OVER (ORDER BY closed_at, id) AS running FROM trades
        WHERE user_id = u.user_id AND status = 'closed'
      ) AS closed
      GROUP BY 1
    ) AS d`
}

/** Each user's latest halt: a hard daily-loss refusal of an alert record, or the risk watchdog's (with its reason). */
function lastHalts(userIds: readonly string[]) {
  return sql`
    SELECT DISTINCT ON (user_id) user_id, halted_at, reason FROM (
      SELECT user_id, max(decided_at) AS halted_at, NULL::text AS reason FROM alerts
      WHERE user_id = ANY(${userIds}::text[]) AND refusal_code = 'daily_loss_limit_hard' AND decided_at IS NOT NULL
      GROUP BY user_id
      UNION ALL
      SELECT DISTINCT ON (user_id) user_id, halted_at, reason FROM risk_halts
      WHERE user_id = ANY(${userIds}::text[]) ORDER BY user_id, halted_at DESC
    ) AS halts
    ORDER BY user_id, halted_at DESC`
}

/**
 * Each user's entries sent (an alert record with a send) and executions (a trade's entry fill and its exit
 * fill) in the CME trading day of `at`, except the records being decided now.
 */
function sessionCounts(userIds: readonly string[], deciding: readonly number[], at: Date) {
  return sql`
    SELECT u.user_id,
      (SELECT count(*) FROM alerts a WHERE a.user_id = u.user_id AND a.send_attempts > 0 AND NOT (a.id = ANY(${deciding}::bigint[]))
        AND COALESCE(a.sent_at, a.received_at) > ${at}::timestamptz - interval '4 days'
        AND cme_trading_day(COALESCE(a.sent_at, a.received_at)) = cme_trading_day(${at}::timestamptz))::int AS entries,
      (SELECT count(*) FROM trades t WHERE t.user_id = u.user_id AND t.opened_at > ${at}::timestamptz - interval '4 days'
        AND cme_trading_day(t.opened_at) = cme_trading_day(${at}::timestamptz))::int
      + (SELECT count(*) FROM trades t WHERE t.user_id = u.user_id AND t.status = 'closed' AND t.closed_at > ${at}::timestamptz - interval '4 days'
        AND cme_trading_day(t.closed_at) = cme_trading_day(${at}::timestamptz))::int AS executions
    FROM unnest(${userIds}::text[]) AS u(user_id)`
}

/** The news events whose blackout can cover `at` (before and after are at most a day each). */
function newsAround(at: Date) {
  return sql`
    SELECT name, at, minutes_before, minutes_after FROM news_events
    WHERE at BETWEEN ${at}::timestamptz - interval '1 day' AND ${at}::timestamptz + interval '1 day'
      AND ${at}::timestamptz BETWEEN at - make_interval(mins => minutes_before) AND at + make_interval(mins => minutes_after)
    ORDER BY at`
}

function heldContracts(scopes: ReadonlyMap<string, BrokerScope>) {
  const held = [...scopes]
  return sql`
    SELECT t.user_id, t.contract, t.broker_contract_id, max(COALESCE(t.root, t.symbol)) AS root
    FROM unnest(${held.map(([userId]) => userId)}::text[], ${held.map(([, scope]) => scope.broker)}::text[],
                ${held.map(([, scope]) => scope.environment)}::text[], ${held.map(([, scope]) => scope.accountId)}::bigint[]) AS s(user_id, broker, environment, account_id)
    JOIN trades t ON t.user_id = s.user_id AND t.broker = s.broker AND t.environment = s.environment AND t.broker_account_id = s.account_id
    WHERE t.status = 'open' AND t.contract IS NOT NULL AND t.broker_contract_id IS NOT NULL
    GROUP BY 1, 2, 3`
}

function groupByUser<Row extends readonly [string, ...unknown[]], Item>(rows: readonly Row[], item: (row: Row) => Item): Map<string, Item[]> {
  const byUser = new Map<string, Item[]>()
  for (const row of rows) {
    const items = byUser.get(row[0])
    if (items) items.push(item(row))
    else byUser.set(row[0], [item(row)])
  }
  return byUser
}
