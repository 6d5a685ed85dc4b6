import { sql, type ColumnOf, type Database, type Kysely, type RowOf } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

/** A target as claimed: its level (1 for TP1), its price as the alert sent it, its contracts. */
export interface TargetClaim {
  level: number
  price: string
  quantity: number
}

/** What carrying out a record's several targets needs: its plan, its order, its trade as it stands. */
export type TargetPlanRow = RowOf<'alerts', 'exit_plan' | 'order_quantity' | 'order_tag'> &
  RowOf<'trades', 'side' | 'status' | 'entry_price' | 'root' | 'contract' | 'broker_contract_id' | 'stop_order_id'> & {
    trade_id: ColumnOf<'trades', 'id'>
    /** Open now (whole contracts). */
    quantity: number
    /** Entered in all: open now and the parts closed. */
    entered: number
  }

/** The record's plan and its trade, or undefined when the record has no exit plan or no trade yet. */
export async function targetPlanOf(db: Kysely<Database>, recordId: number, userId: string): Promise<TargetPlanRow | undefined> {
  const result = await sql<TargetPlanRow>`
    SELECT a.exit_plan, a.order_quantity::int AS order_quantity, a.order_tag, t.id::int AS trade_id, t.side, t.status,
           t.quantity::int AS quantity, (t.quantity + COALESCE((SELECT sum(p.quantity) FROM trades p WHERE p.parent_trade_id = t.id), 0))::int AS entered,
           t.entry_price, t.root, t.contract, t.broker_contract_id::int AS broker_contract_id, t.stop_order_id::int AS stop_order_id
    FROM alerts a JOIN trades t ON t.alert_record_id = a.id
    WHERE a.id = ${recordId} AND a.user_id = ${userId} AND a.exit_plan IS NOT NULL`.execute(db)
  return result.rows[0]
}

/**
 * Claims the target pairs not claimed before (one row per pair, `level` its number), committed before any is
 * sent: the numbers returned are this call's to send; a replayed fill, a reconnect or another instance finds them taken and sends nothing.
 */
export async function claimTargets(db: Kysely<Database>, recordId: number, targets: readonly TargetClaim[]): Promise<number[]> {
  if (targets.length === 0) return []
  const rows = targets.map((target) => sql`(${recordId}::bigint, ${target.level}::smallint, ${target.price}::numeric, ${target.quantity}::int, now())`)
  const result = await sql<{ level: number }>`
    INSERT INTO trade_targets (record_id, level, price, quantity, sent_at) VALUES ${sql.join(rows)}
    ON CONFLICT (record_id, level) DO NOTHING RETURNING level`.execute(db)
  return result.rows.map((row) => row.level)
}

/**
 * A pair's send begins now (the whole-position stop is about to be shrunk for it): its grace on its way
 * (`onItsWay`) counts from here, not from the claim of all the record's pairs, which a slow broker (each send
 * up to its timeout) can leave behind the grace before the later pairs go out.
 */
export async function pairSendBegins(db: Kysely<Database>, recordId: number, level: number): Promise<void> {
  await sql`UPDATE trade_targets SET sent_at = now() WHERE record_id = ${recordId} AND level = ${level} AND order_id IS NULL AND outcome IS NULL`.execute(db)
}

/** What the broker answered for a target's pair (its target's id, its stop's id when known), or why it is not working. */
export async function targetSent(db: Kysely<Database>, recordId: number, level: number, outcome: { orderId: number; stopOrderId?: number | null } | { failure: string }): Promise<void> {
  if ('orderId' in outcome) {
    await sql`UPDATE trade_targets SET order_id = ${outcome.orderId}, stop_order_id = COALESCE(${outcome.stopOrderId ?? null}::bigint, stop_order_id) WHERE record_id = ${recordId} AND level = ${level}`.execute(db)
  } else await sql`UPDATE trade_targets SET outcome = concat_ws('; ', NULLIF(outcome, ''), ${outcome.failure}::text) WHERE record_id = ${recordId} AND level = ${level}`.execute(db)
}

/** A pair's stop found by its tag (`.slN`): stored, so the next look finds it by id as well. */
export async function pairStopFound(db: Kysely<Database>, recordId: number, level: number, stopOrderId: number): Promise<void> {
  await sql`UPDATE trade_targets SET stop_order_id = ${stopOrderId} WHERE record_id = ${recordId} AND level = ${level}`.execute(db)
}

export interface ClaimedTarget {
  /** The pair's number (nearest first). */
  level: number
  /** The target's price (as text: every pair of one target has the same). */
  price: string
  quantity: number
  /** Null until stored: a crash between the send and the store, or an unknown outcome. */
  order_id: number | null
  /** The pair's stop (OCO with the target), null until stored. */
  stop_order_id: number | null
  /** The send was refused (its failure noted): nothing of it at the broker. */
  refused: boolean
}

/** The record's claimed targets, nearest first, with the order id stored for each (if any). */
export async function claimedTargetsOf(db: Kysely<Database>, recordId: number): Promise<ClaimedTarget[]> {
  const result = await sql<ClaimedTarget>`
    SELECT level::int AS level, price::text AS price, quantity, order_id::int AS order_id, stop_order_id::int AS stop_order_id, (order_id IS NULL AND outcome IS NOT NULL AND outcome NOT LIKE 'outcome unknown%') AS refused
    FROM trade_targets WHERE record_id = ${recordId} ORDER BY level`.execute(db)
  return result.rows
}

export async function resizedTarget(db: Kysely<Database>, recordId: number, level: number, quantity: number): Promise<void> {
  await sql`UPDATE trade_targets SET quantity = ${quantity} WHERE record_id = ${recordId} AND level = ${level}`.execute(db)
}

/**
 * What went wrong with a trade's targets, breakeven or trail: added to the record's reason (kept after the
 * trade closes, never overwriting what was there) and shown on the trade while it is open.
 */
export async function noteFailure(db: Kysely<Database>, recordId: number, tradeId: number, note: string): Promise<void> {
  await noteRecord(db, recordId, note)
  await sql`UPDATE trades SET exit_note = concat_ws('; ', NULLIF(exit_note, ''), ${note}::text) WHERE id = ${tradeId}`.execute(db)
}

/** Adds a sentence to the record's reason (what the trader sees of the alert). */
export async function noteRecord(db: Kysely<Database>, recordId: number, note: string): Promise<void> {
  await sql`UPDATE alerts SET reason = concat_ws('; ', NULLIF(reason, ''), ${note}::text) WHERE id = ${recordId}`.execute(db)
}

/** True when the record's targets were claimed (sent as pairs with their own stops, or tried). */
export async function hasTargetPairs(db: Kysely<Database>, recordId: number | null): Promise<boolean> {
  if (recordId === null) return false
  const result = await sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM trade_targets WHERE record_id = ${recordId}) AS found`.execute(db)
  return result.rows[0]?.found === true
}

/** Claims the trade's lone stop (committed before it is sent): true for the one call that may send it. */
export async function claimLoneStop(db: Kysely<Database>, tradeId: number): Promise<boolean> {
  const result = await sql`UPDATE trades SET lone_stop_claimed_at = now() WHERE id = ${tradeId} AND lone_stop_claimed_at IS NULL RETURNING id`.execute(db)
  return result.rows.length === 1
}

/** The lone stop the broker took becomes the trade's stop (the whole-position stop, as the OSO's was). */
export async function loneStopPlaced(db: Kysely<Database>, tradeId: number, orderId: number): Promise<void> {
  await sql`UPDATE trades SET stop_order_id = ${orderId} WHERE id = ${tradeId}`.execute(db)
}

/**
 * A pair (`trade_targets tt`) claimed less than `graceMs` ago whose broker answer is not stored, or whose send
 * ended with an unknown outcome (the broker may carry it out after the client gave up: a stop added for its
 * contract meanwhile would sit beside the pair's own, stop 37's review): on its way.
 */
const onItsWay = (graceMs: number) =>
  sql<boolean>`(tt.order_id IS NULL AND (tt.outcome IS NULL OR tt.outcome LIKE 'outcome unknown%') AND tt.sent_at > now() - ${graceMs} * interval '1 millisecond')`

/**
 * True while a pair of the record was claimed less than `graceMs` ago and the broker's answer is not stored
 * (being sent now, or by another instance): its contracts may be without a stop for that moment only, and a
 * stop placed for them could close more than is held once the pair is working.
 */
export async function pairsInFlight(db: Kysely<Database>, recordId: number, graceMs: number): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM trade_targets tt WHERE tt.record_id = ${recordId} AND ${onItsWay(graceMs)}) AS found`.execute(db)
  return result.rows[0]?.found === true
}

/** A pair claimed for a trade: its record and number, and whether it is on its way (`onItsWay`). */
export interface PairClaim {
  recordId: number
  level: number
  onItsWay: boolean
}

/**
 * The target pairs claimed for the user's open trades in the contract (on any account: a close of one waits
 * on another's at worst), each on its way when claimed less than `graceMs` ago with no answer stored.
 */
export async function pairClaimsInContract(db: Kysely<Database>, userId: string, contractId: number, graceMs: number): Promise<PairClaim[]> {
  const result = await sql<PairClaim>`
    SELECT tt.record_id::int AS "recordId", tt.level::int AS level, ${onItsWay(graceMs)} AS "onItsWay"
    FROM trade_targets tt
    WHERE tt.record_id IN (SELECT t.alert_record_id FROM trades t WHERE t.user_id = ${userId} AND t.broker_contract_id = ${contractId} AND t.status = 'open')`.execute(db)
  return result.rows
}

/** A pair on its way (`onItsWay`): its record, number and the contracts its stop is to cover. */
export interface PairOnItsWay {
  recordId: number
  level: number
  quantity: number
}

/**
 * The target pairs on their way (`onItsWay`) of the user's open trades in the contract on one account: the
 * contracts whose stop is at the broker or about to be, the keeper adding none beside it meanwhile.
 */
export async function pairsOnTheirWay(db: Kysely<Database>, userId: string, scope: BrokerScope, contractId: number, graceMs: number): Promise<PairOnItsWay[]> {
  const result = await sql<PairOnItsWay>`
    SELECT tt.record_id::int AS "recordId", tt.level::int AS level, tt.quantity::int AS quantity
    FROM trade_targets tt
    WHERE ${onItsWay(graceMs)} AND tt.record_id IN (
      SELECT t.alert_record_id FROM trades t
      WHERE t.user_id = ${userId} AND t.broker_contract_id = ${contractId} AND t.status = 'open'
        AND t.broker_account_id = ${scope.accountId} AND t.broker = ${scope.broker} AND t.environment = ${scope.environment})`.execute(db)
  return result.rows
}

/** True while an exit of the user's position in the contract is on its way (a flatten or a partial close not done yet). */
export async function exitOnItsWay(db: Kysely<Database>, userId: string, contract: string): Promise<boolean> {
  const result = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM flatten_requests WHERE user_id = ${userId} AND contract = ${contract} AND done_at IS NULL) AS found`.execute(db)
  return result.rows[0]?.found === true
}

/** A gap's claim: taken by this call, or held by another (since `claimedAt`). */
export type GapClaim = { taken: true } | { taken: false; claimedAt: Date }

/**
 * Claims one gap of the trade's stops (committed before its stop is sent): taken for the one call that may send
 * it. A claim older than `staleMs` is taken again (its stop never reached the broker: the caller's key says no
 * stop placed since is working), in one statement, so of two runs at once one takes it.
 */
export async function claimStopGap(db: Kysely<Database>, tradeId: number, gapKey: string, quantity: number, staleMs: number): Promise<GapClaim> {
  const result = await sql<{ taken: boolean; claimed_at: Date }>`
    WITH taken AS (
      INSERT INTO stop_gap_claims (trade_id, gap_key, quantity, claimed_at) VALUES (${tradeId}, ${gapKey}, ${quantity}, now())
      ON CONFLICT (trade_id, gap_key) DO UPDATE SET quantity = EXCLUDED.quantity, claimed_at = EXCLUDED.claimed_at
        WHERE stop_gap_claims.claimed_at < now() - ${staleMs} * interval '1 millisecond'
      RETURNING trade_id)
    SELECT EXISTS (SELECT 1 FROM taken) AS taken,
           (SELECT claimed_at FROM stop_gap_claims WHERE trade_id = ${tradeId} AND gap_key = ${gapKey}) AS claimed_at`.execute(db)
  const row = result.rows[0]
  return row?.taken === true ? { taken: true } : { taken: false, claimedAt: row?.claimed_at ?? new Date() }
}

/** Lets a gap's claim go (its stop was refused, or never sent): the next check may claim the gap again. */
export async function releaseStopGap(db: Kysely<Database>, tradeId: number, gapKey: string): Promise<void> {
  await sql`DELETE FROM stop_gap_claims WHERE trade_id = ${tradeId} AND gap_key = ${gapKey}`.execute(db)
}

/** The user's open trades whose records have target pairs claimed, on the session's account: the ones whose stops are checked against the broker. */
export async function openTradesWithPairs(db: Kysely<Database>, userId: string, scope: BrokerScope): Promise<number[]> {
  const result = await sql<{ record_id: number }>`
    SELECT t.alert_record_id::int AS record_id FROM trades t
    WHERE t.user_id = ${userId} AND t.status = 'open' AND t.broker_account_id = ${scope.accountId} AND t.broker = ${scope.broker} AND t.environment = ${scope.environment} AND t.alert_record_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM trade_targets g WHERE g.record_id = t.alert_record_id)
    ORDER BY t.id`.execute(db)
  return result.rows.map((row) => row.record_id)
}
