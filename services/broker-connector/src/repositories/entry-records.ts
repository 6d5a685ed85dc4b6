import { sql, type AlertRecordStatus, type Database, type Kysely } from '@signals/db'

/** What the entry flow reads of a record, with the user's trading settings and risk configuration. */
export interface EntryRecord {
  id: number
  user_id: string
  alert_id: string
  status: AlertRecordStatus
  symbol: string | null
  root: string | null
  action: 'LONG' | 'SHORT' | null
  entry_price: string | null
  sl: string | null
  tp: string | null
  alert_quantity: string | null
  raw_data: unknown
  received_at: Date
  send_attempts: number
  order_tag: string | null
  order_quantity: number | null
  contract: string | null
  /** The user's live_trading setting value ({enabled, autoPlaceOrders, ...}), or null. */
  live_trading: { enabled?: unknown; autoPlaceOrders?: unknown } | null
  /** The user's stored risk-engine configuration, or null (defaults apply). */
  risk_config: unknown
}

/** Records by id, with what deciding on them needs, in one statement. */
export async function loadEntryRecords(db: Kysely<Database>, ids: readonly number[]): Promise<EntryRecord[]> {
  if (ids.length === 0) return []
  const result = await sql<EntryRecord>`
    SELECT a.id::int AS id, a.user_id, a.alert_id, a.status, a.symbol, a.root, a.action, a.entry_price, a.sl, a.tp, a.alert_quantity,
           a.raw_data, a.received_at, a.send_attempts, a.order_tag, a.order_quantity, a.contract,
           s.setting_value AS live_trading, r.config AS risk_config
    FROM alerts a
    LEFT JOIN trading_settings s ON s.user_id = a.user_id AND s.setting_key = 'live_trading'
    LEFT JOIN risk_engine_configs r ON r.user_id = a.user_id
    WHERE a.id = ANY(${ids}::bigint[])
    ORDER BY a.id`.execute(db)
  return result.rows
}

/** The user's records whose order may be at the broker or may still be sent (reconciled on a session open). */
export async function placingRecordIds(db: Kysely<Database>, userId: string): Promise<number[]> {
  const result = await sql<{ id: number }>`
    SELECT id::int AS id FROM alerts WHERE user_id = ${userId} AND status = 'placing' ORDER BY id`.execute(db)
  return result.rows.map((row) => row.id)
}

/**
 * Marks a send about to happen, committed before the order leaves: from here on the record is `placing`
 * with attempts > 0, and nothing is sent again for it without reconciling with the broker first.
 */
export async function markSending(
  db: Kysely<Database>,
  id: number,
  order: { tag: string; quantity: number; contract: string },
): Promise<boolean> {
  const result = await sql`
    UPDATE alerts SET status = 'placing', send_attempts = send_attempts + 1, order_tag = ${order.tag},
      order_quantity = ${order.quantity}, contract = ${order.contract}, reason = NULL, refusal_code = NULL
    WHERE id = ${id} AND status IN ('received', 'placing')`.execute(db)
  return (result.numAffectedRows ?? 0n) > 0n
}

/** The record's order is at the broker. */
export async function markPlaced(
  db: Kysely<Database>,
  id: number,
  ids: { entryOrderId: number; stopOrderId: number | null; targetOrderId: number | null },
): Promise<void> {
  await sql`
    UPDATE alerts SET status = 'placed', entry_order_id = ${ids.entryOrderId}, stop_order_id = ${ids.stopOrderId},
      target_order_id = ${ids.targetOrderId}, placed_at = now(), decided_at = now(), reason = NULL
    WHERE id = ${id} AND status IN ('received', 'placing')`.execute(db)
}

export type FinalStatus = 'refused' | 'failed' | 'not_placed'

/** An outcome without an order: refused (with its code), failed (with the broker's or our text), not placed. */
export async function markDecided(
  db: Kysely<Database>,
  id: number,
  outcome: { status: FinalStatus; reason: string; code?: string | null; quantity?: number | null; contract?: string | null },
): Promise<void> {
  await sql`
    UPDATE alerts SET status = ${outcome.status}, reason = ${outcome.reason.slice(0, 2_000)}, refusal_code = ${outcome.code ?? null},
      order_quantity = COALESCE(${outcome.quantity ?? null}::int, order_quantity), contract = COALESCE(${outcome.contract ?? null}, contract),
      decided_at = now()
    WHERE id = ${id} AND status IN ('received', 'placing')`.execute(db)
}

/** Leaves the record as it is but says why it waits (a broker answer that did not settle it). */
export async function noteWaiting(db: Kysely<Database>, id: number, reason: string): Promise<void> {
  await sql`UPDATE alerts SET reason = ${reason.slice(0, 2_000)} WHERE id = ${id} AND status IN ('received', 'placing')`.execute(db)
}

/** Live records of this alert the entry flow has not settled (left by a crash or handed back for a retry). */
export async function unsettledEntryRecords(db: Kysely<Database>, alertId: string): Promise<{ id: number; userId: string }[]> {
  const result = await sql<{ id: number; user_id: string }>`
    SELECT id::int AS id, user_id FROM alerts
    WHERE alert_id = ${alertId} AND NOT is_test AND status IN ('received', 'placing')
    ORDER BY id`.execute(db)
  return result.rows.map((row) => ({ id: row.id, userId: row.user_id }))
}
