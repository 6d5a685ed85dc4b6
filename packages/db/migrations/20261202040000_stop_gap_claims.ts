import type { Kysely } from 'kysely'

// Issue 24, item 4 (docs/decisions/targets-breakeven.md, "Stops that do not add up"): when the stops of a trade
// with target pairs close fewer contracts than the broker holds of it, a stop is placed for the gap. Each gap is
// claimed here (committed) before its stop is sent, keyed by what was seen (the trade's quantity held and its
// working stops at the broker), so two runs that see the same gap never place two stops.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stop_gap_claims')
    .addColumn('trade_id', 'bigint', (col) => col.notNull().references('trades.id').onDelete('cascade'))
    .addColumn('gap_key', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('claimed_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('stop_gap_claims_pkey', ['trade_id', 'gap_key'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stop_gap_claims').execute()
}
