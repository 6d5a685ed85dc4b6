import type { Kysely } from 'kysely'

// Issue 24, items 5 and 6 (docs/decisions/order-management-words.md). An alert that manages what is at the
// broker (modify, cancel, flatten everything, kill switch) is recorded per trader as an entry is, and its
// instruction kept on the record; an entry's order type, trigger and time in force, and where the sender's
// strategy says its position was (item 7's position sync guard), likewise. Null on every
// record written before, which keeps its meaning (a market or limit entry read from raw_data).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('instruction', 'jsonb').addColumn('entry_order', 'jsonb').addColumn('strategy_position', 'jsonb').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('instruction').dropColumn('entry_order').dropColumn('strategy_position').execute()
}
