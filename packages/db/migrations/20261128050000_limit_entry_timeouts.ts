import { sql, type Kysely } from 'kysely'

// Issue 24, item 6 (docs/decisions/limit-entry-timeout.md): a limit entry sent with `limit_timeout` is
// cancelled when not filled by its deadline. The deadline is kept here, written with the send mark, so a
// connector restart or another instance taking the session still carries it out; claimed like
// `daily_flattens` (once, or again when a claim was never marked done a minute on).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('limit_entry_timeouts')
    .addColumn('record_id', 'bigint', (col) => col.primaryKey().references('alerts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('timeout_seconds', 'integer', (col) => col.notNull())
    .addColumn('due_at', 'timestamptz', (col) => col.notNull())
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('done_at', 'timestamptz')
    .addColumn('outcome', 'text')
    // True once the entry order was cancelled at its deadline: its record no longer counts as a working entry.
    .addColumn('cancelled', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute()
  await sql`CREATE INDEX limit_entry_timeouts_due ON limit_entry_timeouts (due_at) WHERE done_at IS NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('limit_entry_timeouts').execute()
}
