import { prepared, sql, type ColumnOf, type Database, type Kysely, type RowOf } from '@signals/db'
import { accountRiskConfigOf } from './record-account.ts'

/**
 * What the entry flow reads of a record, with the user's trading settings and the risk configuration of the
 * record's account. The record's own columns are typed from Database; the optional ones (the instruction,
 * the entry order, the strategy position, the exit plan, the trailing stop, the signal source) are absent
 * where a record is made without them.
 */
export type EntryRecord = RowOf<
  'alerts',
  | 'id' | 'alert_id' | 'status' | 'symbol' | 'root' | 'action' | 'entry_price' | 'sl' | 'tp' | 'alert_quantity' | 'order_word' | 'raw_data'
  | 'received_at' | 'send_attempts' | 'order_tag' | 'order_quantity' | 'contract' | 'refusal_code'
> & {
  /** The trader's: the entry flow decides only records that belong to one (a test alert's has none). */
  user_id: NonNullable<ColumnOf<'alerts', 'user_id'>>
  /** The switches of the user's primary account (the spec's live_trading setting; the account the session trades), or null. */
  live_trading: { enabled?: unknown; autoPlaceOrders?: unknown } | null
  /** The stored risk-engine configuration of the record's account (accountRiskConfigOf), or null (defaults apply). */
  risk_config: ColumnOf<'account_risk_configs', 'config'> | null
  /**
   * Ages on one clock, Postgres' (`now()` of the read): the alert's, from its ingest time but never less
   * than since Postgres recorded it (an ingest clock running ahead cannot make an alert look younger);
   * and, for a record whose send was marked, the time since then.
   */
  age_ms: number
  sent_age_ms: number | null
  /** Postgres' `now()` at the read: the decision's "now" (trading day, sizing). */
  read_at: Date
  /** The risk strategy's `maxContracts` ("Maximum contracts", a JSON number), or null when not set. */
  max_contracts: unknown
  /** True once this record's reversal has asked for its close (its note says so): the account is then the reversal's doing. */
  reversal_asked?: boolean
} & Partial<RowOf<'alerts', 'instruction' | 'entry_order' | 'strategy_position' | 'exit_plan' | 'trailing_stop' | 'source_id' | 'size_multiplier'>>

/** How a reversal's record starts its note while its close is carried out (kept once its entry is placed). */
export const REVERSAL_NOTE = 'reversal: '

/** How the note of a record's several targets starts (targets/keep-targets.ts): kept when the record is marked placed. */
export const TARGETS_NOTE = 'targets placed: '

/** Begins what the trader is told of a stop or target the connector places itself and could not (own-legs.ts). */
export const OWN_LEGS_NOTE = 'stop and target placed by the connector: '

/** A record failed because its send's outcome stayed unknown; corrected to `placed` if its order turns up. */
export const OUTCOME_UNKNOWN = 'outcome_unknown'

/** Records by id, with what deciding on them needs, in one statement. */
export async function loadEntryRecords(db: Kysely<Database>, ids: readonly number[]): Promise<EntryRecord[]> {
  if (ids.length === 0) return []
  const result = await sql<EntryRecord>`
    SELECT a.id::int AS id, a.user_id, a.alert_id, a.status, a.symbol, a.root, a.action, a.entry_price, a.sl, a.tp, a.alert_quantity, a.order_word,
           a.raw_data, a.received_at, a.send_attempts, a.order_tag, a.order_quantity, a.contract, a.refusal_code, a.instruction, a.entry_order, a.strategy_position, a.exit_plan, a.trailing_stop, a.source_id, a.size_multiplier,
           COALESCE(a.reason LIKE ${`${REVERSAL_NOTE}%`}, false) AS reversal_asked,
           CASE WHEN p.id IS NOT NULL THEN jsonb_build_object('enabled', p.live_trading, 'autoPlaceOrders', p.auto_place) END AS live_trading, r.config AS risk_config, rs.setting_value -> 'maxContracts' AS max_contracts,
           (extract(epoch FROM now() - LEAST(a.received_at, a.created_at)) * 1000)::float8 AS age_ms,
           (extract(epoch FROM now() - COALESCE(a.sent_at, a.received_at)) * 1000)::float8 AS sent_age_ms,
           now() AS read_at
    FROM alerts a
    LEFT JOIN broker_accounts p ON p.user_id = a.user_id AND p.is_primary
    LEFT JOIN trading_settings rs ON rs.user_id = a.user_id AND rs.setting_key = 'risk_strategy'
    LEFT JOIN ${accountRiskConfigOf('a')} r ON true
    WHERE a.id = ANY(${ids}::bigint[])
    ORDER BY a.id`.execute(db)
  return result.rows
}

/**
 * The user's records whose order may be at the broker: left `placing`, or failed "outcome unknown" in the
 * last day (an order that turns up late is still recorded). Reconciled by tag on a session open.
 */
export async function reconcilableRecordIds(db: Kysely<Database>, userId: string): Promise<number[]> {
  const result = await sql<{ id: number }>`
    SELECT id::int AS id FROM alerts WHERE user_id = ${userId} AND status = 'placing'
    UNION
    SELECT id::int FROM alerts WHERE user_id = ${userId} AND status = 'failed' AND refusal_code = ${OUTCOME_UNKNOWN} AND decided_at > now() - interval '1 day'
    ORDER BY id`.execute(db)
  return result.rows.map((row) => row.id)
}

/**
 * Records left unsettled past their time, for the sweep: every `placing` record (settled by its tag or
 * failed after the grace; a live holder's are skipped by their locks), and `received` ones older than
 * `receivedAfterMs` on Postgres' clock (their message is gone or overdue). Oldest first, at most `limit`.
 */
export async function strandedRecords(db: Kysely<Database>, receivedAfterMs: number, limit: number): Promise<{ id: number; userId: string }[]> {
  const result = await sql<{ id: number; user_id: string }>`
    SELECT id::int AS id, user_id FROM alerts
    WHERE status IN ('received', 'placing') AND NOT is_test
      AND (status = 'placing' OR LEAST(received_at, created_at) < now() - make_interval(secs => ${receivedAfterMs}::float8 / 1000))
    ORDER BY id
    LIMIT ${limit}`.execute(db)
  return result.rows.map((row) => ({ id: row.id, userId: row.user_id }))
}

export interface SendMark {
  id: number
  tag: string
  quantity: number
  contract: string
  /** The side ordered: kept on a record whose alert left it to the open position (`add`, `reverse`). */
  side: 'LONG' | 'SHORT'
}

/**
 * Marks sends about to happen, committed before the orders leave: from here on each record is `placing`
 * with `sent_at` now, and it is never sent again (only reconciled by its tag) unless the broker answers
 * that it did not carry the order out (`markUnsent`). Only `received` records are marked. Returns the ids
 * marked (only those may be sent).
 */
export async function markSending(db: Kysely<Database>, marks: readonly SendMark[]): Promise<Set<number>> {
  if (marks.length === 0) return new Set()
  const result = await sql<{ id: number }>`
    UPDATE alerts AS a SET status = 'placing', send_attempts = a.send_attempts + 1, sent_at = now(), order_tag = m.tag, order_quantity = m.quantity,
      contract = m.contract, refusal_code = NULL, action = COALESCE(a.action, m.side),
      reason = CASE WHEN a.reason LIKE ${`${REVERSAL_NOTE}%`} THEN a.reason END
    FROM unnest(${marks.map((m) => m.id)}::bigint[], ${marks.map((m) => m.tag)}::text[], ${marks.map((m) => m.quantity)}::int[],
                ${marks.map((m) => m.contract)}::text[], ${marks.map((m) => m.side)}::text[]) AS m(id, tag, quantity, contract, side)
    WHERE a.id = m.id AND a.status = 'received'
    RETURNING a.id::int AS id`.execute(db)
  return new Set(result.rows.map((row) => row.id))
}

/**
 * The broker answered that it did not carry these sends out (a penalty or 429 it asked us to wait out, or
 * no connection to send on): back to `received`, with the reason, to be sent again later.
 */
export async function markUnsent(db: Kysely<Database>, notes: readonly { id: number; reason: string }[]): Promise<void> {
  if (notes.length === 0) return
  await sql`
    UPDATE alerts AS a SET status = 'received', reason = m.reason
    FROM unnest(${notes.map((n) => n.id)}::bigint[], ${notes.map((n) => n.reason.slice(0, 2_000))}::text[]) AS m(id, reason)
    WHERE a.id = m.id AND a.status = 'placing'`.execute(db)
}

export interface PlacedMark {
  id: number
  entryOrderId: number
  stopOrderId: number | null
  targetOrderId: number | null
}

/** The records' orders are at the broker (also for a record failed "outcome unknown" whose order turned up). */
export async function markPlaced(db: Kysely<Database>, marks: readonly PlacedMark[]): Promise<void> {
  if (marks.length === 0) return
  await sql`
    UPDATE alerts AS a SET status = 'placed', entry_order_id = m.entry, stop_order_id = m.stop, target_order_id = m.target,
      placed_at = now(), decided_at = now(), refusal_code = NULL,
      -- A reversal keeps its first leg's note (the close it waited for) beside the entry it placed; the targets'
      -- note is kept too (the entry's fill may place them before this mark is written), and so is the note of a
      -- stop or target the connector could not place itself at such a fill.
      reason = CASE WHEN a.reason LIKE ${`${REVERSAL_NOTE}%`} OR a.reason LIKE ${`%${TARGETS_NOTE}%`} OR a.reason LIKE ${`%${OWN_LEGS_NOTE}%`} THEN a.reason END
    FROM unnest(${marks.map((m) => m.id)}::bigint[], ${marks.map((m) => m.entryOrderId)}::bigint[], ${marks.map((m) => m.stopOrderId)}::bigint[],
                ${marks.map((m) => m.targetOrderId)}::bigint[]) AS m(id, entry, stop, target)
    WHERE a.id = m.id AND (a.status IN ('received', 'placing') OR (a.status = 'failed' AND a.refusal_code = ${OUTCOME_UNKNOWN}))`.execute(db)
}

type FinalStatus = 'refused' | 'failed' | 'not_placed'

export interface DecidedMark {
  id: number
  status: FinalStatus
  reason: string
  code?: string | null
  contract?: string | null
}

/** Outcomes without an order: refused (with its code), failed (with the broker's or our text), not placed. */
export async function markDecided(db: Kysely<Database>, marks: readonly DecidedMark[]): Promise<void> {
  if (marks.length === 0) return
  await sql`
    UPDATE alerts AS a SET status = m.status, reason = m.reason, refusal_code = m.code, contract = COALESCE(m.contract, a.contract), decided_at = now()
    FROM unnest(${marks.map((m) => m.id)}::bigint[], ${marks.map((m) => m.status)}::text[], ${marks.map((m) => m.reason.slice(0, 2_000))}::text[],
                ${marks.map((m) => m.code ?? null)}::text[], ${marks.map((m) => m.contract ?? null)}::text[]) AS m(id, status, reason, code, contract)
    WHERE a.id = m.id AND a.status IN ('received', 'placing')`.execute(db)
}

/** Leaves records as they are but says why they wait (a broker answer that did not settle them). */
export async function noteWaiting(db: Kysely<Database>, notes: readonly { id: number; reason: string }[]): Promise<void> {
  if (notes.length === 0) return
  await sql`
    UPDATE alerts AS a SET reason = m.reason
    FROM unnest(${notes.map((n) => n.id)}::bigint[], ${notes.map((n) => n.reason.slice(0, 2_000))}::text[]) AS m(id, reason)
    WHERE a.id = m.id AND a.status IN ('received', 'placing')`.execute(db)
}

/** Live records of this alert the entry flow has not settled (left by a crash or handed back for a retry). */
export async function unsettledEntryRecords(db: Kysely<Database>, alertId: string): Promise<{ id: number; userId: string }[]> {
  const result = await sql<{ id: number; user_id: string }>`${prepared}
    SELECT id::int AS id, user_id FROM alerts
    WHERE alert_id = ${alertId} AND NOT is_test AND status IN ('received', 'placing')
    ORDER BY id`.execute(db)
  return result.rows.map((row) => ({ id: row.id, userId: row.user_id }))
}
