import type { Kysely } from 'kysely'

// Issue 24, item 4 (docs/decisions/targets-breakeven.md): an entry's several targets and its move to
// breakeven after TP1 are kept on the record (`exit_plan`, contracts ExitPlan; null: one target as before),
// and its trailing stop (`trailing_stop`, contracts TrailingStop; null: the stop stays where it was placed).
// Each target order is placed once: its row is written (committed) before it is sent, so a replayed fill,
// a reconnect or another instance never sends it again; `order_id` once the broker answered.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('exit_plan', 'jsonb').addColumn('trailing_stop', 'jsonb').execute()
  await db.schema
    .createTable('trade_targets')
    .addColumn('record_id', 'bigint', (col) => col.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('level', 'smallint', (col) => col.notNull())
    .addColumn('price', 'numeric', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull())
    .addColumn('order_id', 'bigint')
    .addColumn('sent_at', 'timestamptz', (col) => col.notNull())
    .addColumn('outcome', 'text')
    .addPrimaryKeyConstraint('trade_targets_pkey', ['record_id', 'level'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trade_targets').execute()
  await db.schema.alterTable('alerts').dropColumn('exit_plan').dropColumn('trailing_stop').execute()
}
