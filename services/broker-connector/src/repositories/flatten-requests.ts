import { sql, type Database, type Kysely, type RowOf, type Side, type TradeResult } from '@signals/db'

/** A flatten to write: close the user's position in a contract (one side, or whichever is held). */
export interface FlattenRequestInput {
  userId: string
  contract: string
  brokerContractId: number | null
  side: Side | null
  alertId: string | null
  result: TradeResult
  signalExitPrice: string | null
  /** Entries received up to this time are the ones it closes. */
  signalAt: string
  /** The source whose trades it closes (`id` null: the spec route's); absent: every source's (a halt). */
  source?: { id: string | null }
}

/**
 * A flatten not yet carried out: `close_part` a partial close (issue 24), or null for the whole position;
 * `source_scoped` reaches one source's trades (`source_id`; null: the spec route's), false every source's.
 */
export type PendingFlatten = RowOf<
  'flatten_requests',
  | 'id' | 'user_id' | 'contract' | 'broker_contract_id' | 'side' | 'alert_id' | 'result' | 'signal_exit_price' | 'signal_at'
  | 'attempts' | 'reason' | 'next_attempt_at' | 'close_part' | 'part_sent_at' | 'source_scoped' | 'source_id'
>

/** What the trader reads while live trading is off (the exit waits for the next session). */
export const LIVE_TRADING_OFF =
  'live trading is off: the exit is sent to the broker when live trading is switched on again (until then the position keeps its stop and target at the broker)'

/**
 * Writes flatten requests with the exit that causes them (inside its transaction). One pending request per
 * (user, contract): a second exit joins the first (its alert, result and time; either side when the two
 * differ), and is tried again at once. A user whose live trading is off gets the reason now.
 */
export async function requestFlattens(trx: Kysely<Database>, requests: readonly FlattenRequestInput[]): Promise<void> {
  if (requests.length === 0) return
  const column = <T>(pick: (request: FlattenRequestInput) => T) => requests.map(pick)
  await sql`
    INSERT INTO flatten_requests (user_id, contract, broker_contract_id, side, alert_id, result, signal_exit_price, signal_at, reason, source_scoped, source_id)
    SELECT r.user_id, r.contract, r.contract_id, r.side, r.alert_id, r.result, r.signal_exit_price, r.signal_at,
           CASE WHEN acc.live_trading THEN NULL ELSE ${LIVE_TRADING_OFF} END, r.source_scoped, r.source_id
    FROM unnest(${column((r) => r.userId)}::text[], ${column((r) => r.contract)}::text[], ${column((r) => r.brokerContractId)}::bigint[],
                ${column((r) => r.side)}::text[], ${column((r) => r.alertId)}::text[], ${column((r) => r.result)}::text[],
                ${column((r) => r.signalExitPrice)}::numeric[], ${column((r) => r.signalAt)}::timestamptz[],
                ${column((r) => r.source !== undefined)}::boolean[], ${column((r) => r.source?.id ?? null)}::uuid[])
         AS r(user_id, contract, contract_id, side, alert_id, result, signal_exit_price, signal_at, source_scoped, source_id)
    LEFT JOIN broker_accounts acc ON acc.user_id = r.user_id AND acc.is_primary
    -- A redelivered exit asks for nothing again.
    WHERE NOT EXISTS (SELECT 1 FROM flatten_requests f WHERE f.user_id = r.user_id AND f.contract = r.contract AND f.alert_id = r.alert_id AND f.close_part IS NULL)
    ORDER BY r.user_id, r.contract
    ON CONFLICT (user_id, contract) WHERE done_at IS NULL AND close_part IS NULL DO UPDATE SET
      broker_contract_id = COALESCE(flatten_requests.broker_contract_id, EXCLUDED.broker_contract_id),
      side = CASE WHEN flatten_requests.side IS NOT DISTINCT FROM EXCLUDED.side THEN EXCLUDED.side END,
      alert_id = EXCLUDED.alert_id, result = EXCLUDED.result, signal_exit_price = EXCLUDED.signal_exit_price,
      signal_at = GREATEST(flatten_requests.signal_at, EXCLUDED.signal_at), next_attempt_at = now(),
      reason = COALESCE(EXCLUDED.reason, flatten_requests.reason),
      -- Two sources' exits joined: the flatten reaches both, so every source's (as before sources).
      source_scoped = flatten_requests.source_scoped AND EXCLUDED.source_scoped AND flatten_requests.source_id IS NOT DISTINCT FROM EXCLUDED.source_id,
      source_id = CASE WHEN flatten_requests.source_id IS NOT DISTINCT FROM EXCLUDED.source_id THEN EXCLUDED.source_id END`.execute(trx)
  // The trades waiting for it say why at once (live trading off); otherwise the holder says so when it tries.
  await sql`
    UPDATE trades t SET exit_note = f.reason
    FROM flatten_requests f
    WHERE f.user_id = ANY(${[...new Set(requests.map((r) => r.userId))]}::text[]) AND f.done_at IS NULL AND f.reason IS NOT NULL
      AND t.user_id = f.user_id AND t.contract = f.contract AND t.status = 'open' AND t.exit_requested_at IS NOT NULL
      AND t.exit_note IS DISTINCT FROM f.reason`.execute(trx)
}

/** The user's flattens not yet carried out, oldest first. */
export async function pendingFlattens(db: Kysely<Database>, userId: string): Promise<PendingFlatten[]> {
  return db
    .selectFrom('flatten_requests')
    .select(['id', 'user_id', 'contract', 'broker_contract_id', 'side', 'alert_id', 'result', 'signal_exit_price', 'signal_at', 'attempts', 'reason'])
    .select(['next_attempt_at', 'close_part', 'part_sent_at', 'source_scoped', 'source_id'])
    .where('user_id', '=', userId)
    .where('done_at', 'is', null)
    .orderBy('id')
    .execute()
}

/** Users with a flatten due now (new, or its wait is over). */
export async function usersWithDueFlattens(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('flatten_requests')
    .select('user_id')
    .distinct()
    .where('done_at', 'is', null)
    .where('next_attempt_at', '<=', sql<Date>`now()`)
    .execute()
  return rows.map((row) => row.user_id)
}

/** The trades an exit is on its way for say where it stands (a change notifies the trader's page). */
const noteExit = (changed: ReturnType<typeof sql>, note: string) => sql`
  UPDATE trades t SET exit_note = ${note} FROM (${changed}) AS f(user_id, contract)
  WHERE t.user_id = f.user_id AND t.contract = f.contract AND t.status = 'open' AND t.exit_requested_at IS NOT NULL
    AND t.exit_note IS DISTINCT FROM ${note}`

/** An attempt that could not finish: why, and when to try again (counted as an attempt unless `counted` is false: a wait of our own, nothing sent). */
export async function flattenWaits(db: Kysely<Database>, flatten: Pick<PendingFlatten, 'id'>, reason: string, waitMs: number, counted = true): Promise<void> {
  await sql`
    WITH changed AS (
      UPDATE flatten_requests SET attempts = attempts + ${counted ? 1 : 0}::int, reason = ${reason}, next_attempt_at = now() + ${waitMs} * interval '1 millisecond'
      WHERE id = ${flatten.id} AND done_at IS NULL RETURNING user_id, contract)
    ${noteExit(sql`SELECT user_id, contract FROM changed`, reason)}`.execute(db)
}

/** No attempt could be made (no session): the reason is kept, the attempt count is not raised. */
export async function flattensWaitFor(db: Kysely<Database>, userIds: readonly string[], reason: string): Promise<void> {
  if (userIds.length === 0) return
  await sql`
    WITH changed AS (
      UPDATE flatten_requests SET reason = ${reason}
      WHERE user_id = ANY(${userIds}::text[]) AND done_at IS NULL AND reason IS DISTINCT FROM ${reason} RETURNING user_id, contract)
    ${noteExit(sql`SELECT user_id, contract FROM changed`, reason)}`.execute(db)
}

/** Carried out: what was done at the broker is kept (before what its order's end added already: noteCloseOrderEnded), and told on the trades still waiting for their fill. */
export async function flattenDone(db: Kysely<Database>, flatten: Pick<PendingFlatten, 'id'>, outcome: string): Promise<void> {
  await sql`
    WITH changed AS (
      UPDATE flatten_requests SET done_at = now(), outcome = concat_ws('; ', ${outcome}::text, NULLIF(outcome, '')), attempts = attempts + 1, reason = NULL
      WHERE id = ${flatten.id} AND done_at IS NULL RETURNING user_id, contract)
    ${noteExit(sql`SELECT user_id, contract FROM changed`, outcome)}`.execute(db)
}

/** Open trades of the user whose flatten was sent and whose closing fill has not been applied yet. */
export async function tradesAwaitingExitFill(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM trades t
    WHERE t.user_id = ${userId} AND t.status = 'open' AND t.exit_requested_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM flatten_requests f WHERE f.user_id = t.user_id AND f.contract = t.contract AND f.done_at IS NULL)`.execute(db)
  return result.rows[0]?.count ?? 0
}
