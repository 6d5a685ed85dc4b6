import { sql, type Kysely } from 'kysely'

// One truth about positions (issue 20): a result alert no longer closes a broker-backed trade itself. It
// asks for the exit (the trade stays open, as the broker still holds it, with the signal's price and
// result kept), writes a durable flatten request that the instance holding the trader's session carries
// out (now, on the next session open, or after the broker's wait), and the broker's fills close the trade.
// A fill of part of a trade closes that part as a closed child row; the open remainder keeps the record.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('trades')
    // An exit alert asked to close it: set while the flatten is on its way, kept once closed.
    .addColumn('exit_requested_at', 'timestamptz')
    // The result the closing fill gives it (the alert's TP / SL / Session End).
    .addColumn('exit_result', 'varchar(16)', (c) => c.check(sql`exit_result IN ('TP', 'SL', 'Session End')`))
    // The alert's exit price, kept beside the broker's fill (the signal's exit).
    .addColumn('signal_exit_price', 'numeric(20, 8)')
    // Where the exit stands, for the trader: why it waits, or what the broker said.
    .addColumn('exit_note', 'text')
    // A part of a trade closed by a fill of part of its quantity: the trade it came from.
    .addColumn('parent_trade_id', 'bigint', (c) => c.references('trades.id').onDelete('cascade'))
    // The order whose fills closed this row (its fills are folded into one exit at their weighted price).
    .addColumn('exit_order_id', 'bigint')
    .execute()
  await sql`CREATE INDEX trades_parent_idx ON trades (parent_trade_id) WHERE parent_trade_id IS NOT NULL`.execute(db)

  // Each broker fill that closed (part of) a trade, by quantity: a fill replayed from a snapshot finds its
  // quantity already allocated and changes nothing.
  await db.schema
    .createTable('trade_exit_fills')
    .addColumn('fill_id', 'bigint', (c) => c.notNull())
    .addColumn('trade_id', 'bigint', (c) => c.notNull().references('trades.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('order_id', 'bigint', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('price', 'numeric(20, 8)', (c) => c.notNull())
    .addColumn('filled_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('trade_exit_fills_pkey', ['fill_id', 'trade_id'])
    .execute()
  await sql`CREATE INDEX trade_exit_fills_user_fill_idx ON trade_exit_fills (user_id, fill_id)`.execute(db)

  // Flattens to carry out at the broker, one pending per (user, contract): written with the exit, done by
  // the instance holding the user's session, kept with why it waits until done.
  await db.schema
    .createTable('flatten_requests')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('contract', 'varchar(16)', (c) => c.notNull())
    .addColumn('broker_contract_id', 'bigint')
    // The side to close (null: whichever the account holds).
    .addColumn('side', 'varchar(5)', (c) => c.check(sql`side IN ('LONG', 'SHORT')`))
    .addColumn('alert_id', 'varchar(64)')
    .addColumn('result', 'varchar(16)', (c) => c.notNull().check(sql`result IN ('TP', 'SL', 'Session End')`))
    .addColumn('signal_exit_price', 'numeric(20, 8)')
    // Entries received up to this time are the ones the exit closes (later ones are new signals).
    .addColumn('signal_at', 'timestamptz', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reason', 'text')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('done_at', 'timestamptz')
    .addColumn('outcome', 'text')
    .execute()
  await sql`CREATE UNIQUE INDEX flatten_requests_pending_key ON flatten_requests (user_id, contract) WHERE done_at IS NULL`.execute(db)
  await sql`CREATE INDEX flatten_requests_due_idx ON flatten_requests (next_attempt_at) WHERE done_at IS NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('flatten_requests').ifExists().execute()
  await db.schema.dropTable('trade_exit_fills').ifExists().execute()
  await sql`DROP INDEX IF EXISTS trades_parent_idx`.execute(db)
  await db.schema
    .alterTable('trades')
    .dropColumn('exit_requested_at')
    .dropColumn('exit_result')
    .dropColumn('signal_exit_price')
    .dropColumn('exit_note')
    .dropColumn('parent_trade_id')
    .dropColumn('exit_order_id')
    .execute()
}
