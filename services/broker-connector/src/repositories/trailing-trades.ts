import { sql, type Database, type Kysely, type Side } from '@signals/db'

/** An open trade whose stop trails the market. */
export interface TrailingTrade {
  id: number
  user_id: string
  side: Side
  root: string | null
  contract: string | null
  broker_contract_id: number | null
  stop_order_id: number
  /** Its record: the stops paired with its targets carry the record's tag (`.sl1`..`.sl3`). */
  alert_record_id: number
  trailing_stop: unknown
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
