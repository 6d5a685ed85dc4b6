import { sql, type Kysely } from 'kysely'

// Issue 22 item 3 (docs/decisions/signal-sources.md, "Opting out of the default source"): the spec's
// `POST /webhook/alert` is the default operator source, with no row of its own, and every live trader
// subscribes to it unless they opt out. A row here is a trader's opt-out; no row keeps the spec's behaviour,
// so every existing trader stays subscribed. The fan-out reads it as an anti-join on the primary key.
// Per trader while a trader has one account; the multi-account work adds `account_id`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('default_source_opt_outs')
    .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey().references('users.user_id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('default_source_opt_outs').execute()
}
