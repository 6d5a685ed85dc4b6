import type { Kysely } from 'kysely'

// Issue 22 item 3 (docs/decisions/signal-sources.md, "Size rules"): a subscription that sizes a source's
// entries by a multiplier of the alert's quantity writes that multiplier on each record it makes, so the
// record is sized by the rule in force when the alert came, and says so.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').addColumn('size_multiplier', 'numeric').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alerts').dropColumn('size_multiplier').execute()
}
