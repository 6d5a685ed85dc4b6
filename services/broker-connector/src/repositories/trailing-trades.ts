import { sql, type ColumnOf, type Database, type Kysely, type RowOf } from '@signals/db'

/** An open trade whose stop trails the market; the stops paired with its targets carry its record's tag (`.sl1`..`.sl3`). */
export type TrailingTrade = RowOf<'trades', 'id' | 'user_id' | 'side' | 'root' | 'contract' | 'broker_contract_id'> & {
  stop_order_id: NonNullable<ColumnOf<'trades', 'stop_order_id'>>
  alert_record_id: NonNullable<ColumnOf<'trades', 'alert_record_id'>>
  trailing_stop: ColumnOf<'alerts', 'trailing_stop'>
}

/** The open trades with a trailing stop and a stop at the broker, of these users (the sessions this instance holds). */
export async function trailingTradesOf(db: Kysely<Database>, userIds: readonly string[]): Promise<TrailingTrade[]> {
  if (userIds.length === 0) return []
  const result = await sql<TrailingTrade>`
    SELECT t.id::int AS id, t.user_id, t.side, t.root, t.contract, t.broker_contract_id::int AS broker_contract_id,
           t.stop_order_id::int AS stop_order_id, t.alert_record_id::int AS alert_record_id, a.trailing_stop
    FROM trades t JOIN alerts a ON a.id = t.alert_record_id
    WHERE t.status = 'open' AND a.trailing_stop IS NOT NULL AND t.stop_order_id IS NOT NULL AND t.user_id = ANY(${userIds}::text[])
    ORDER BY t.id`.execute(db)
  return result.rows
}
