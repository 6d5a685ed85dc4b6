import { sql, type Kysely } from 'kysely'

// Migrations see the database as it was then: Kysely<any>, never the app's types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)')
    .addColumn('picture', 'text')
    .addColumn('approved', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('role', 'varchar(20)', (c) => c.notNull().defaultTo('trader').check(sql`role IN ('trader', 'admin')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('users_email_lower_idx').on('users').expression(sql`lower(email)`).execute()
  await db.schema.createIndex('users_pending_idx').on('users').column('created_at').where(sql.ref('approved'), '=', false).execute()

  // E-mails are stored lower-cased so the unique key and the sign-in lookup are case-insensitive.
  await db.schema
    .createTable('banned_emails')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('email', 'varchar(255)', (c) => c.notNull().unique().check(sql`email = lower(email) AND length(email) > 0`))
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('trading_settings')
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('setting_key', 'varchar(50)', (c) =>
      c.notNull().check(sql`setting_key IN ('risk_strategy', 'live_trading')`),
    )
    .addColumn('setting_value', 'jsonb', (c) => c.notNull().check(sql`jsonb_typeof(setting_value) = 'object'`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('trading_settings_pkey', ['user_id', 'setting_key'])
    .execute()
  // The fan-out query reads exactly this set: users whose live trading is on.
  await sql`CREATE INDEX trading_settings_live_users_idx ON trading_settings (user_id)
    WHERE setting_key = 'live_trading' AND setting_value -> 'enabled' = 'true'::jsonb`.execute(db)

  await db.schema
    .createTable('risk_engine_configs')
    .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey().references('users.user_id').onDelete('cascade'))
    .addColumn('config', 'jsonb', (c) => c.notNull().check(sql`jsonb_typeof(config) = 'object'`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('broker_credentials')
    .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey().references('users.user_id').onDelete('cascade'))
    .addColumn('broker', 'varchar(20)', (c) => c.notNull().check(sql`broker IN ('paper', 'tradovate')`))
    .addColumn('environment', 'varchar(10)', (c) => c.notNull().check(sql`environment IN ('demo', 'live')`))
    .addColumn('account_id', 'varchar(255)', (c) => c.notNull().check(sql`length(account_id) > 0`))
    .addColumn('key_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('secret_iv', 'bytea', (c) => c.notNull().check(sql`length(secret_iv) = 12`))
    .addColumn('secret_tag', 'bytea', (c) => c.notNull().check(sql`length(secret_tag) = 16`))
    .addColumn('secret_ciphertext', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('alert_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(255)', (c) => c.references('users.user_id').onDelete('cascade'))
    .addColumn('owner_user_id', 'varchar(255)')
    .addColumn('symbol', 'varchar(64)')
    .addColumn('root', 'varchar(16)')
    .addColumn('action', 'varchar(5)', (c) => c.check(sql`action IN ('LONG', 'SHORT')`))
    .addColumn('entry_price', 'numeric(20, 8)')
    .addColumn('sl', 'numeric(20, 8)')
    .addColumn('tp', 'numeric(20, 8)')
    .addColumn('indicator', 'varchar(255)')
    .addColumn('leverage', 'numeric(12, 4)')
    .addColumn('raw_data', 'jsonb', (c) => c.notNull())
    .addColumn('is_test', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('received'))
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // A test alert belongs to no live trader; a live record always has one.
    .addCheckConstraint('alerts_test_has_no_trader', sql`NOT is_test OR user_id IS NULL`)
    .addCheckConstraint('alerts_live_has_trader', sql`is_test OR user_id IS NOT NULL`)
    .execute()
  await sql`CREATE UNIQUE INDEX alerts_alert_user_key ON alerts (alert_id, user_id) NULLS NOT DISTINCT`.execute(db)
  await db.schema.createIndex('alerts_user_recent_idx').on('alerts').columns(['user_id', 'id desc']).execute()

  await db.schema
    .createTable('trades')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('alert_record_id', 'bigint', (c) => c.references('alerts.id').onDelete('set null'))
    .addColumn('symbol', 'varchar(64)', (c) => c.notNull())
    .addColumn('root', 'varchar(16)')
    .addColumn('side', 'varchar(5)', (c) => c.notNull().check(sql`side IN ('LONG', 'SHORT')`))
    .addColumn('quantity', 'numeric(18, 4)', (c) => c.notNull().check(sql`quantity > 0`))
    .addColumn('entry_price', 'numeric(20, 8)', (c) => c.notNull())
    .addColumn('exit_price', 'numeric(20, 8)')
    .addColumn('status', 'varchar(10)', (c) =>
      c.notNull().defaultTo('open').check(sql`status IN ('open', 'closed', 'cancelled')`),
    )
    .addColumn('result', 'varchar(16)', (c) => c.check(sql`result IN ('TP', 'SL', 'Session End')`))
    .addColumn('pnl', 'numeric(20, 2)')
    .addColumn('close_alert_id', 'varchar(64)')
    .addColumn('opened_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('closed_at', 'timestamptz')
    .addCheckConstraint(
      'trades_closed_is_complete',
      sql`status <> 'closed' OR (exit_price IS NOT NULL AND result IS NOT NULL AND pnl IS NOT NULL AND closed_at IS NOT NULL)`,
    )
    .execute()
  // "Open trades by symbol" is the result-alert lookup; by root too, so NQ1! closes an NQZ6 trade.
  await db.schema.createIndex('trades_open_symbol_idx').on('trades').column('symbol').where(sql.ref('status'), '=', 'open').execute()
  await db.schema.createIndex('trades_open_root_idx').on('trades').column('root').where(sql.ref('status'), '=', 'open').execute()
  await db.schema.createIndex('trades_user_recent_idx').on('trades').columns(['user_id', 'id desc']).execute()

  await db.schema
    .createTable('intake_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('intake_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)')
    .addColumn('remote_address', 'varchar(64)')
    .addColumn('raw_body', 'text', (c) => c.notNull())
    .addColumn('outcome', 'varchar(32)', (c) => c.notNull())
    .addColumn('status_code', 'smallint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('alert_id', 'varchar(64)')
    .addColumn('kind', 'varchar(10)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('intake_log_received_idx').on('intake_log').column('received_at').execute()

  await db.schema
    .createTable('admin_audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('actor_user_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('target', 'varchar(255)', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await db.schema.createIndex('admin_audit_log_recent_idx').on('admin_audit_log').column('created_at').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'admin_audit_log',
    'intake_log',
    'trades',
    'alerts',
    'broker_credentials',
    'risk_engine_configs',
    'trading_settings',
    'banned_emails',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}
