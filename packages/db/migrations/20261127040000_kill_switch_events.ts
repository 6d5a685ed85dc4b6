import { sql, type Kysely } from 'kysely'

// The kill switch (issue 25, item 2): every use is kept for the trader (and support) to see, with what the
// broker did: when it was pressed, that auto-place was switched off, and the outcome once the connector
// holding the trader's session has flattened and cancelled (or why it could not).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('kill_switch_events')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull().defaultTo('pending').check(sql`outcome IN ('pending', 'done', 'incomplete', 'no_session')`))
    // What was done at the broker, in words for the trader.
    .addColumn('detail', 'text')
    .addColumn('finished_at', 'timestamptz')
    .execute()
  await sql`CREATE INDEX kill_switch_events_user_idx ON kill_switch_events (user_id, id DESC)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('kill_switch_events').execute()
}
