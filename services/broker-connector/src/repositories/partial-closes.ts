import type { ClosePart } from '@signals/contracts'
import { sql, type Database, type Kysely } from '@signals/db'
import { LIVE_TRADING_OFF, type FlattenRequestInput } from './flatten-requests.ts'

/**
 * Writes partial closes (issue 24 item 3) as flatten requests carrying `close_part`, inside the result
 * alert's transaction: one per (user, contract, alert), never merged with another request (two partial
 * closes are two closes), so a redelivered alert asks for nothing again. Carried out like any flatten, by
 * the instance holding the user's session (positions/partial-close.ts).
 */
export async function requestPartialCloses(trx: Kysely<Database>, requests: readonly (FlattenRequestInput & { part: ClosePart })[]): Promise<void> {
  if (requests.length === 0) return
  const column = <T>(pick: (request: FlattenRequestInput & { part: ClosePart }) => T) => requests.map(pick)
  await sql`
    INSERT INTO flatten_requests (user_id, contract, broker_contract_id, side, alert_id, result, signal_exit_price, signal_at, reason, close_part)
    SELECT r.user_id, r.contract, r.contract_id, r.side, r.alert_id, r.result, r.signal_exit_price, r.signal_at,
           CASE WHEN acc.live_trading THEN NULL ELSE ${LIVE_TRADING_OFF} END, r.part
    FROM unnest(${column((r) => r.userId)}::text[], ${column((r) => r.contract)}::text[], ${column((r) => r.brokerContractId)}::bigint[],
                ${column((r) => r.side)}::text[], ${column((r) => r.alertId)}::text[], ${column((r) => r.result)}::text[],
                ${column((r) => r.signalExitPrice)}::numeric[], ${column((r) => r.signalAt)}::timestamptz[], ${column((r) => JSON.stringify(r.part))}::jsonb[])
         AS r(user_id, contract, contract_id, side, alert_id, result, signal_exit_price, signal_at, part)
    LEFT JOIN broker_accounts acc ON acc.user_id = r.user_id AND acc.is_primary
    ORDER BY r.user_id, r.contract
    ON CONFLICT (user_id, contract, alert_id) WHERE close_part IS NOT NULL DO NOTHING`.execute(trx)
}

/** Marks a partial close's order as about to leave (committed first); false when it was marked already. */
export async function markPartSent(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await sql`UPDATE flatten_requests SET part_sent_at = now() WHERE id = ${id} AND part_sent_at IS NULL AND done_at IS NULL`.execute(db)
  return (result.numAffectedRows ?? 0n) > 0n
}

/** The broker said it did not carry the order out: it may be sent again on the next attempt. */
export async function markPartUnsent(db: Kysely<Database>, id: number): Promise<void> {
  await sql`UPDATE flatten_requests SET part_sent_at = NULL WHERE id = ${id} AND done_at IS NULL`.execute(db)
}

/**
 * What became of a close's order after the request was carried out (it ended short of its fill at the broker):
 * added to the request's outcome, so "sent" is not all it says. Written before the runner marks the request done
 * (the order can end while the close still holds the exit lock), it stays after the runner's outcome (flattenDone).
 */
export async function noteCloseOrderEnded(db: Kysely<Database>, id: number, note: string): Promise<void> {
  // Said once: the same order's end looked at again (a session open after a restart) adds nothing.
  await sql`UPDATE flatten_requests SET outcome = concat_ws('; ', NULLIF(outcome, ''), ${note}::text) WHERE id = ${id} AND strpos(coalesce(outcome, ''), ${note}::text) = 0`.execute(db)
}

/** Whether the brackets cut for the close's order (broker id) were put back already (it ended short of its fill): done once. */
export async function closePutBack(db: Kysely<Database>, id: number, orderId: number): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM flatten_requests WHERE id = ${id} AND ${orderId}::bigint = ANY(put_back_orders)`.execute(db)
  return rows.length > 0
}

/** The brackets cut for the close's order were put back: never again, whoever looks at its end next (a session open). */
export async function markClosePutBack(db: Kysely<Database>, id: number, orderId: number): Promise<void> {
  await sql`UPDATE flatten_requests SET put_back_orders = array_append(put_back_orders, ${orderId}::bigint) WHERE id = ${id} AND NOT ${orderId}::bigint = ANY(put_back_orders)`.execute(db)
}

/** The user's closes in the contract (partial closes, sources' exits) marked sent and not yet carried out: their outcome is not known yet. `except`: the asking request (null: none left out). */
export async function closesSentNotDone(db: Kysely<Database>, userId: string, contract: string, except: number | null): Promise<{ id: number; part_sent_at: Date }[]> {
  return db
    .selectFrom('flatten_requests')
    .select(['id', 'part_sent_at'])
    .where('user_id', '=', userId)
    .where('contract', '=', contract)
    .$if(except !== null, (query) => query.where('id', '!=', except ?? 0))
    .where('done_at', 'is', null)
    .where('part_sent_at', 'is not', null)
    .$narrowType<{ part_sent_at: Date }>()
    .orderBy('id')
    .execute()
}
