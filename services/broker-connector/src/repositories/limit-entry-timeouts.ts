import { sql, type Database, type Kysely, type RowOf } from '@signals/db'
import { accountRiskConfigOf } from './record-account.ts'

/**
 * A limit entry's deadline (`on_timeout`: cancel, or send the unfilled remainder at the market; `market_tag`:
 * the remainder's order, once written, looked for by this tag, never sent again), with what its record says
 * now (`refusal_code` `outcome_unknown`: its send may still turn up at the broker). `cancel_asked`: a
 * conversion's cancel was asked, so an entry found cancelled then was cancelled by us.
 */
export type DueLimitEntry = RowOf<'limit_entry_timeouts', 'record_id' | 'user_id' | 'due_at' | 'timeout_seconds' | 'on_timeout' | 'market_tag' | 'market_quantity'> &
  RowOf<'alerts', 'status' | 'refusal_code' | 'order_tag'> & { cancel_asked: boolean }

/**
 * The deadlines of limit entries just marked sending, timed from `now`: the alert's `limit_timeout` (on its
 * entry order), else the `entryOrders.limitTimeoutSeconds` of the record's account (accountRiskConfigOf);
 * none without either. What the deadline does is fixed here too: the alert's `limitTimeoutAction`, else the
 * account's `entryOrders.onLimitTimeout`, else cancel. A send marked again (a retry) keeps its first deadline.
 */
export async function addLimitEntryTimeouts(db: Kysely<Database>, limitRecordIds: readonly number[], now: Date): Promise<void> {
  if (limitRecordIds.length === 0) return
  await sql`
    INSERT INTO limit_entry_timeouts (record_id, user_id, timeout_seconds, due_at, on_timeout)
    SELECT a.id, a.user_id, t.seconds, ${now}::timestamptz + make_interval(secs => t.seconds),
           CASE WHEN COALESCE(a.entry_order ->> 'limitTimeoutAction', r.config -> 'entryOrders' ->> 'onLimitTimeout') = 'market' THEN 'market' ELSE 'cancel' END
    FROM alerts a
    LEFT JOIN ${accountRiskConfigOf('a')} r ON true
    CROSS JOIN LATERAL (SELECT COALESCE(
      CASE WHEN jsonb_typeof(a.entry_order -> 'limitTimeoutSeconds') = 'number' THEN (a.entry_order ->> 'limitTimeoutSeconds')::int END,
      CASE WHEN jsonb_typeof(r.config -> 'entryOrders' -> 'limitTimeoutSeconds') = 'number' THEN (r.config -> 'entryOrders' ->> 'limitTimeoutSeconds')::int END
    ) AS seconds) t
    WHERE a.id = ANY(${limitRecordIds}::bigint[]) AND a.order_tag IS NOT NULL AND t.seconds > 0
    ON CONFLICT (record_id) DO NOTHING`.execute(db)
}

/** Deadlines passed at `now` and not done, unclaimed or claimed a minute ago by an instance that never finished. */
export async function dueLimitEntries(db: Kysely<Database>, now: Date): Promise<DueLimitEntry[]> {
  const { rows } = await sql<DueLimitEntry>`
    SELECT t.record_id, t.user_id, a.status, a.refusal_code, a.order_tag, t.timeout_seconds, t.due_at, t.on_timeout,
           t.cancel_asked_at IS NOT NULL AS cancel_asked, t.market_tag, t.market_quantity
    FROM limit_entry_timeouts t JOIN alerts a ON a.id = t.record_id
    WHERE t.done_at IS NULL AND t.due_at <= ${now}::timestamptz AND (t.claimed_at IS NULL OR t.claimed_at < now() - interval '1 minute')
    ORDER BY t.due_at, t.record_id`.execute(db)
  return rows.map((row) => ({ ...row, record_id: Number(row.record_id) }))
}

/** Claims a deadline for this instance: true once (or again a minute after a claim never marked done). */
export async function claimLimitEntry(db: Kysely<Database>, recordId: number): Promise<boolean> {
  const { rows } = await sql`
    UPDATE limit_entry_timeouts SET claimed_at = now()
    WHERE record_id = ${recordId} AND done_at IS NULL AND (claimed_at IS NULL OR claimed_at < now() - interval '1 minute')
    RETURNING record_id`.execute(db)
  return rows.length > 0
}

/** Lets a claim go (the entry's outcome is not known yet): looked at again on the next pass. */
export async function releaseLimitEntry(db: Kysely<Database>, recordId: number): Promise<void> {
  await sql`UPDATE limit_entry_timeouts SET claimed_at = NULL WHERE record_id = ${recordId} AND done_at IS NULL`.execute(db)
}

/** A conversion's cancel, written before it goes out: a pass taken again finds the entry cancelled by us. */
export async function noteCancelAsked(db: Kysely<Database>, recordId: number): Promise<void> {
  await sql`UPDATE limit_entry_timeouts SET cancel_asked_at = COALESCE(cancel_asked_at, now()) WHERE record_id = ${recordId}`.execute(db)
}

/**
 * The remainder's market order, written before it is sent: true once. A pass taken again after a crash
 * (or an unknown outcome) finds the tag and looks for the order by it; it never sends it again.
 */
export async function claimMarketRemainder(db: Kysely<Database>, recordId: number, tag: string, quantity: number): Promise<boolean> {
  const { rows } = await sql`
    UPDATE limit_entry_timeouts SET market_tag = ${tag}, market_quantity = ${quantity}
    WHERE record_id = ${recordId} AND market_tag IS NULL AND done_at IS NULL
    RETURNING record_id`.execute(db)
  return rows.length > 0
}

/**
 * The deadline done with what happened; when the entry was cancelled (or its rest sent at the market), its
 * record says so where the trader sees it (the record stays `placed`: a part filled before is a trade of its own).
 */
export async function markLimitEntryDone(db: Kysely<Database>, recordId: number, outcome: string, cancelled: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`UPDATE limit_entry_timeouts SET done_at = now(), outcome = ${outcome}, cancelled = ${cancelled} WHERE record_id = ${recordId}`.execute(trx)
    if (cancelled) await sql`UPDATE alerts SET reason = ${outcome} WHERE id = ${recordId} AND status IN ('placing', 'placed')`.execute(trx)
  })
}
