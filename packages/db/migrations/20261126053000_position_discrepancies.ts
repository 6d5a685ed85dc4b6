import { sql, type Kysely } from 'kysely'

// Reconciliation with the broker (issue 20, item 2): every difference found between the broker's positions
// and working orders and our open trades and records, per account and contract, with what was done about
// it and why, for the trader to see. A repair done at once is kept resolved; a difference left to the trader
// stays open (one row per account, contract and kind) until a later pass finds the two agreeing.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('position_discrepancies')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('broker', 'varchar(20)', (c) => c.notNull().check(sql`broker IN ('paper', 'tradovate')`))
    .addColumn('environment', 'varchar(10)', (c) => c.notNull().check(sql`environment IN ('demo', 'live')`))
    .addColumn('broker_account_id', 'bigint', (c) => c.notNull())
    .addColumn('broker_contract_id', 'bigint', (c) => c.notNull())
    .addColumn('contract', 'varchar(32)')
    .addColumn('kind', 'varchar(32)', (c) => c.notNull().check(sql`kind IN ('untracked_position', 'broker_flat', 'quantity_differs', 'stray_order')`))
    .addColumn('broker_qty', 'integer', (c) => c.notNull())
    .addColumn('our_qty', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'bigint')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('found_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .execute()
  // One open difference per account, contract and kind, however often the timer sees it.
  await sql`CREATE UNIQUE INDEX position_discrepancies_open_key
    ON position_discrepancies (user_id, broker, environment, broker_account_id, broker_contract_id, kind) WHERE resolved_at IS NULL`.execute(db)
  await sql`CREATE INDEX position_discrepancies_user ON position_discrepancies (user_id, id DESC)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('position_discrepancies').ifExists().execute()
}
