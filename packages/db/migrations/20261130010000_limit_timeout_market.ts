import { sql, type Kysely } from 'kysely'

// Issue 24, item 6 (docs/decisions/limit-entry-timeout.md, "Sent at the market"): at its deadline a limit
// entry may be turned into a market order for its unfilled remainder. What the deadline does is fixed when
// the row is written (the alert's `limit_timeout_action`, else the account's `entryOrders.onLimitTimeout`).
// The conversion is written here before anything goes out: `cancel_asked_at` before the entry is cancelled
// (a pass taken again after a crash knows the cancel was ours), `market_tag`/`market_quantity` before the
// market order is sent (a pass taken again looks for it by its tag, never sends it twice).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('limit_entry_timeouts')
    .addColumn('on_timeout', 'text', (col) => col.notNull().defaultTo('cancel').check(sql`on_timeout IN ('cancel', 'market')`))
    .addColumn('cancel_asked_at', 'timestamptz')
    .addColumn('market_tag', 'text')
    .addColumn('market_quantity', 'integer')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('limit_entry_timeouts').dropColumn('on_timeout').dropColumn('cancel_asked_at').dropColumn('market_tag').dropColumn('market_quantity').execute()
}
