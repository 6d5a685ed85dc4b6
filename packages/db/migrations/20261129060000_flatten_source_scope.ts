import type { Kysely } from 'kysely'

// Issue 22 item 4 at the broker (docs/decisions/signal-sources.md, "Exits at the broker"): a flatten asked by
// a result alert keeps the alert's source, so a trade of the exit's entries that opened meanwhile is asked
// to exit only when it came from that source. `source_scoped` false: every source (a halt, older requests).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('flatten_requests')
    .addColumn('source_scoped', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('source_id', 'uuid')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('flatten_requests').dropColumn('source_scoped').dropColumn('source_id').execute()
}
