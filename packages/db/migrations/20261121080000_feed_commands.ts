import { sql, type Kysely } from 'kysely'

// Outbox of feed commands (feeds.start/stop/restart): written in the same transaction as the change that
// causes it, published after commit, marked when JetStream has acknowledged it. A crash between commit and
// publish leaves the row unpublished, and the relay sends it later under the same message id.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('feed_commands')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('command_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('action', 'varchar(10)', (c) => c.notNull().check(sql`action IN ('start', 'stop', 'restart')`))
    .addColumn('reason', 'varchar(255)', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz')
    .execute()
  // The relay reads exactly this set, oldest first.
  await sql`CREATE INDEX feed_commands_unpublished_idx ON feed_commands (user_id, id) WHERE published_at IS NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feed_commands').ifExists().execute()
}
