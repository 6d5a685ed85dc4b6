import type { Kysely } from 'kysely'

// Issue 24, item 4 (docs/decisions/targets-breakeven.md): each target goes out with its own stop, linked at
// the broker (Tradovate order/placeOCO), so the stops and the targets never close more than the position
// while the connector is away. The pair's stop order id, once the broker answered (or found by its tag).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trade_targets').addColumn('stop_order_id', 'bigint').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trade_targets').dropColumn('stop_order_id').execute()
}
