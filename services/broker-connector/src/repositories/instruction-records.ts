import { sql, type ColumnOf, type Database, type Kysely, type RowOf } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'
import { inSourceReach } from './spec-route-reach.ts'

/**
 * An instruction carried out at the broker: the record is `placed` (what was sent went through), its
 * reason says what was done, in words for the trader. Only a record still unsettled is marked.
 */
export async function markInstructionDone(db: Kysely<Database>, id: number, reason: string): Promise<void> {
  await sql`
    UPDATE alerts SET status = 'placed', reason = ${reason.slice(0, 2_000)}, refusal_code = NULL, decided_at = now()
    WHERE id = ${id} AND status IN ('received', 'placing')`.execute(db)
}

/**
 * An open trade a modify reaches, with the stop its entry was sized with (its record's sl); the stops paired
 * with its targets carry its record's tag (`.sl1`..`.sl3`).
 */
export type ModifiableTrade = RowOf<'trades', 'id' | 'side' | 'root' | 'contract' | 'stop_order_id' | 'target_order_id' | 'alert_record_id'> & {
  sized_stop: ColumnOf<'alerts', 'sl'>
}

/**
 * The user's open broker-backed trades on this account in the symbol's root (on `side` when given), not
 * already asked to exit, that the alert's source reaches (its entries opened them; docs/decisions/signal-sources.md); oldest first.
 */
export async function modifiableTrades(
  db: Kysely<Database>,
  request: { userId: string; source: { id: string | null }; root: string; side: 'LONG' | 'SHORT' | null },
  scope: BrokerScope,
): Promise<ModifiableTrade[]> {
  const { userId, root, side } = request
  const onSide = side === null ? sql`` : sql`AND t.side = ${side}`
  const result = await sql<ModifiableTrade>`
    SELECT t.id::int AS id, t.side, t.root, t.contract, t.stop_order_id::float8 AS stop_order_id, t.target_order_id::float8 AS target_order_id, a.sl::text AS sized_stop, t.alert_record_id::int AS alert_record_id
    FROM trades t LEFT JOIN alerts a ON a.id = t.alert_record_id
    WHERE t.user_id = ${userId} AND t.status = 'open' AND t.exit_requested_at IS NULL AND t.root = ${root}
      AND t.broker = ${scope.broker} AND t.environment = ${scope.environment} AND t.broker_account_id = ${scope.accountId} ${onSide}
      AND ${inSourceReach(request.source, 't.user_id')}
    ORDER BY t.id`.execute(db)
  return result.rows
}

/** The records say their entry order was cancelled by a cancel alert (they stay `placed`: the order was at the broker). */
export async function noteEntriesCancelledByAlert(db: Kysely<Database>, userId: string, recordIds: readonly number[]): Promise<void> {
  if (recordIds.length === 0) return
  await sql`
    UPDATE alerts SET reason = 'the entry order was cancelled by a cancel alert before it filled'
    WHERE id = ANY(${recordIds}::bigint[]) AND user_id = ${userId} AND status IN ('placing', 'placed')`.execute(db)
}

/**
 * What of the account's working orders the alert's source reaches: of these records (the orders' tags),
 * the user's that are the source's; and whether orders without our tag are (the spec route's, unless the
 * trader opted out of it: they belong to no source).
 */
export async function ordersInReach(db: Kysely<Database>, userId: string, source: { id: string | null }, recordIds: readonly number[]): Promise<{ records: Set<number>; untagged: boolean }> {
  const untagged = source.id === null ? sql`NOT EXISTS (SELECT 1 FROM default_source_opt_outs o WHERE o.user_id = ${userId})` : sql`false`
  // An aggregate without GROUP BY: one row, even when no record is the source's.
  const result = await sql<{ ids: number[]; untagged: boolean }>`
    SELECT COALESCE(array_agg(a.id::int), '{}') AS ids, ${untagged} AS untagged
    FROM alerts a WHERE a.id = ANY(${recordIds}::bigint[]) AND a.user_id = ${userId} AND ${inSourceReach(source, 'a.user_id')}`.execute(db)
  const row = result.rows[0]
  return { records: new Set(row?.ids ?? []), untagged: row?.untagged ?? false }
}
