import { sql, type Kysely } from 'kysely'

// The live entry flow (issue 12): an alert record carries its order outcome where the trader sees it, and a
// trade carries the broker's ids, so a fill finds its trade and one record opens at most one trade.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('alerts')
    .addColumn('reason', 'text')
    .addColumn('refusal_code', 'varchar(32)')
    .addColumn('alert_quantity', 'numeric(18, 4)')
    .addColumn('order_quantity', 'integer', (c) => c.check(sql`order_quantity > 0`))
    .addColumn('order_tag', 'varchar(64)')
    .addColumn('contract', 'varchar(16)')
    .addColumn('entry_order_id', 'bigint')
    .addColumn('stop_order_id', 'bigint')
    .addColumn('target_order_id', 'bigint')
    // Committed before each send: a record in `placing` with attempts > 0 may have an order at the broker.
    .addColumn('send_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('placed_at', 'timestamptz')
    .addColumn('decided_at', 'timestamptz')
    .execute()
  // Records from before order placement existed placed nothing: say so instead of leaving them waiting.
  await sql`UPDATE alerts SET status = 'refused', refusal_code = 'incomplete_alert',
    reason = 'the alert lacks an action or a symbol, so no order can be made from it' WHERE status = 'incomplete'`.execute(db)
  await sql`UPDATE alerts SET status = 'not_placed',
    reason = 'recorded before automatic order placement existed; no order was placed' WHERE status = 'queued'`.execute(db)
  await sql`ALTER TABLE alerts ADD CONSTRAINT alerts_status_known
    CHECK (status IN ('received', 'placing', 'placed', 'refused', 'failed', 'not_placed', 'test'))`.execute(db)
  await sql`CREATE UNIQUE INDEX alerts_order_tag_key ON alerts (order_tag) WHERE order_tag IS NOT NULL`.execute(db)
  // Reconciliation on a session open reads exactly this set.
  await sql`CREATE INDEX alerts_placing_idx ON alerts (user_id) WHERE status = 'placing'`.execute(db)

  await db.schema
    .alterTable('trades')
    .addColumn('contract', 'varchar(16)')
    .addColumn('broker_contract_id', 'bigint')
    .addColumn('broker_account_id', 'bigint')
    .addColumn('entry_order_id', 'bigint')
    .addColumn('stop_order_id', 'bigint')
    .addColumn('target_order_id', 'bigint')
    // Fills already counted into the entry (a snapshot after a reconnect repeats them).
    .addColumn('entry_fill_ids', sql`bigint[]`, (c) => c.notNull().defaultTo(sql`'{}'::bigint[]`))
    .addColumn('broker_exit_price', 'numeric(20, 8)')
    .addColumn('broker_exit_fill_id', 'bigint')
    .execute()
  await sql`CREATE UNIQUE INDEX trades_alert_record_key ON trades (alert_record_id) WHERE alert_record_id IS NOT NULL`.execute(db)
  await sql`CREATE UNIQUE INDEX trades_entry_order_key ON trades (entry_order_id) WHERE entry_order_id IS NOT NULL`.execute(db)
  await sql`CREATE INDEX trades_user_contract_idx ON trades (user_id, broker_contract_id) WHERE broker_contract_id IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS trades_user_contract_idx`.execute(db)
  await sql`DROP INDEX IF EXISTS trades_entry_order_key`.execute(db)
  await sql`DROP INDEX IF EXISTS trades_alert_record_key`.execute(db)
  await db.schema
    .alterTable('trades')
    .dropColumn('contract')
    .dropColumn('broker_contract_id')
    .dropColumn('broker_account_id')
    .dropColumn('entry_order_id')
    .dropColumn('stop_order_id')
    .dropColumn('target_order_id')
    .dropColumn('entry_fill_ids')
    .dropColumn('broker_exit_price')
    .dropColumn('broker_exit_fill_id')
    .execute()
  await sql`DROP INDEX IF EXISTS alerts_placing_idx`.execute(db)
  await sql`DROP INDEX IF EXISTS alerts_order_tag_key`.execute(db)
  await sql`ALTER TABLE alerts DROP CONSTRAINT IF EXISTS alerts_status_known`.execute(db)
  await db.schema
    .alterTable('alerts')
    .dropColumn('reason')
    .dropColumn('refusal_code')
    .dropColumn('alert_quantity')
    .dropColumn('order_quantity')
    .dropColumn('order_tag')
    .dropColumn('contract')
    .dropColumn('entry_order_id')
    .dropColumn('stop_order_id')
    .dropColumn('target_order_id')
    .dropColumn('send_attempts')
    .dropColumn('placed_at')
    .dropColumn('decided_at')
    .execute()
}
