import { sql, type Kysely } from 'kysely'

// Open pnl in the risk state (issue 20, item 6): the risk watchdog flattens an account whose open loss takes
// it through the hard daily loss limit or the trailing floor, with no alert involved. The halt it records
// is read with the hard daily-loss refusals of alert records (the session stays halted until 17:00
// Chicago), with the sentence the next refused entry repeats; the trades it closes keep why. The equity peak
// it sees is kept for a floor that trails open profit (intraday_unrealized).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('risk_halts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('code', 'varchar(32)', (c) => c.notNull().check(sql`code IN ('daily_loss_limit_hard', 'drawdown_floor')`))
    // What was breached, with the figures (a clause the halted refusal quotes).
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('open_pnl', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('halted_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE INDEX risk_halts_user_idx ON risk_halts (user_id, halted_at DESC)`.execute(db)
  // Why the platform closed the trade when no signal did (the risk watchdog's sentence), kept once closed.
  await db.schema.alterTable('trades').addColumn('close_reason', 'text').execute()
  // The highest equity (balance plus open pnl) the watchdog saw: the peak an intraday_unrealized floor trails.
  await db.schema
    .createTable('equity_peaks')
    .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey().references('users.user_id').onDelete('cascade'))
    .addColumn('peak', 'numeric(20, 2)', (c) => c.notNull())
    .addColumn('reached_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  // The watchdog looks for open broker trades every few seconds: cheap when nobody holds one.
  await sql`CREATE INDEX trades_open_broker_idx ON trades (user_id) WHERE status = 'open' AND broker_contract_id IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS trades_open_broker_idx`.execute(db)
  await db.schema.alterTable('trades').dropColumn('close_reason').execute()
  await db.schema.dropTable('equity_peaks').execute()
  await db.schema.dropTable('risk_halts').execute()
}
