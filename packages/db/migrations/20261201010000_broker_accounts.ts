import { sql, type Kysely } from 'kysely'

// Issue 22 items 1, 2 and 9, stages 1 and 2 of docs/decisions/accounts.md. A trader's broker logins
// (credentials, sealed as today) and accounts (one broker account id under a login, each with its own
// switches and risk configuration). Every user gets one primary account, holding what they had.
//
// Staged state: the broker-connector, the admin service's ban and the kill switch still read and write the
// per-user tables (`broker_credentials`, `trading_settings`' live_trading, `risk_engine_configs`). For the
// primary account those stay the source of truth, and the triggers below mirror every write to them into
// the primary's rows here, whoever writes, in the writer's transaction. Additional accounts live here only,
// and cannot go live until the connector trades by account (the `live_primary_only` check).
//
// Risk configuration per account is its own table, not an `account_id` on `risk_engine_configs`: that
// table's key is the user, and the connector joins it by user; several rows per user would multiply the
// connector's joined rows. The per-user table goes when the connector reads accounts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('broker_logins')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('broker', 'varchar(20)', (c) => c.notNull().check(sql`broker IN ('paper', 'tradovate', 'projectx')`))
    .addColumn('environment', 'varchar(10)', (c) => c.notNull().check(sql`environment IN ('demo', 'live')`))
    // The broker account id the secret was sealed with (its AES-GCM binding: user, broker, environment, account).
    .addColumn('bound_account_ref', 'varchar(255)', (c) => c.notNull().check(sql`length(bound_account_ref) > 0`))
    .addColumn('key_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('secret_iv', 'bytea', (c) => c.notNull().check(sql`length(secret_iv) = 12`))
    .addColumn('secret_tag', 'bytea', (c) => c.notNull().check(sql`length(secret_tag) = 16`))
    .addColumn('secret_ciphertext', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()
  await sql`CREATE INDEX broker_logins_user_idx ON broker_logins (user_id)`.execute(db)

  await db.schema
    .createTable('broker_accounts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    // Null only for a primary account whose trader has not saved credentials yet.
    .addColumn('login_id', 'uuid', (c) => c.references('broker_logins.id').onDelete('cascade'))
    .addColumn('broker_account_ref', 'varchar(255)', (c) => c.check(sql`length(broker_account_ref) > 0`))
    .addColumn('name', 'varchar(100)', (c) => c.notNull().check(sql`length(btrim(name)) > 0`))
    .addColumn('is_primary', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('live_trading', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('auto_place', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('broker_accounts_login_and_ref', sql`(login_id IS NULL) = (broker_account_ref IS NULL)`)
    .addCheckConstraint('broker_accounts_linked_unless_primary', sql`login_id IS NOT NULL OR is_primary`)
    // The staged state: only the primary trades until the connector is keyed by account.
    .addCheckConstraint('broker_accounts_live_primary_only', sql`is_primary OR NOT live_trading`)
    .execute()
  await sql`CREATE UNIQUE INDEX broker_accounts_one_primary ON broker_accounts (user_id) WHERE is_primary`.execute(db)
  await sql`CREATE INDEX broker_accounts_login_idx ON broker_accounts (login_id)`.execute(db)

  await db.schema
    .createTable('account_risk_configs')
    .addColumn('account_id', 'uuid', (c) => c.primaryKey().references('broker_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('config', 'jsonb', (c) => c.notNull().check(sql`jsonb_typeof(config) = 'object'`))
    .addColumn('preset', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute()

  await moveEveryUserToPrimaryAccount(db)
  await mirrorPerUserTablesToPrimary(db)
}

/** One primary account per user with their credentials (as a login), live-trading switches and risk configuration. */
async function moveEveryUserToPrimaryAccount(db: Kysely<any>): Promise<void> {
  await sql`
    INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at)
    SELECT user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at
    FROM broker_credentials`.execute(db)
  await sql`
    INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name, is_primary, live_trading, auto_place)
    SELECT u.user_id, l.id, c.account_id, 'Primary', true,
      coalesce(s.setting_value -> 'enabled' = 'true'::jsonb, false),
      coalesce(s.setting_value -> 'autoPlaceOrders' = 'true'::jsonb, false)
    FROM users u
    LEFT JOIN broker_credentials c ON c.user_id = u.user_id
    LEFT JOIN broker_logins l ON l.user_id = u.user_id
    LEFT JOIN trading_settings s ON s.user_id = u.user_id AND s.setting_key = 'live_trading'`.execute(db)
  await sql`
    INSERT INTO account_risk_configs (account_id, user_id, config, preset, updated_at)
    SELECT a.id, r.user_id, r.config, r.preset, r.updated_at
    FROM risk_engine_configs r JOIN broker_accounts a ON a.user_id = r.user_id AND a.is_primary`.execute(db)
}

async function mirrorPerUserTablesToPrimary(db: Kysely<any>): Promise<void> {
  // The user's primary account, made if missing (a user created after this migration).
  await sql`
    CREATE FUNCTION broker_primary_account(owner varchar) RETURNS uuid LANGUAGE plpgsql AS $$
    DECLARE found uuid;
    BEGIN
      SELECT id INTO found FROM broker_accounts WHERE user_id = owner AND is_primary;
      IF found IS NULL THEN
        INSERT INTO broker_accounts (user_id, name, is_primary) VALUES (owner, 'Primary', true)
        ON CONFLICT (user_id) WHERE is_primary DO NOTHING RETURNING id INTO found;
        IF found IS NULL THEN SELECT id INTO found FROM broker_accounts WHERE user_id = owner AND is_primary; END IF;
      END IF;
      RETURN found;
    END $$`.execute(db)

  await sql`
    CREATE FUNCTION broker_primary_for_new_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM broker_primary_account(NEW.user_id); RETURN NULL; END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_for_new_user AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION broker_primary_for_new_user()`.execute(db)

  await sql`
    CREATE FUNCTION broker_primary_live_trading() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.setting_key = 'live_trading' THEN
        UPDATE broker_accounts SET
          live_trading = coalesce(NEW.setting_value -> 'enabled' = 'true'::jsonb, false),
          auto_place = coalesce(NEW.setting_value -> 'autoPlaceOrders' = 'true'::jsonb, false),
          updated_at = now()
        WHERE id = broker_primary_account(NEW.user_id);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_live_trading AFTER INSERT OR UPDATE ON trading_settings FOR EACH ROW EXECUTE FUNCTION broker_primary_live_trading()`.execute(db)

  await sql`
    CREATE FUNCTION broker_primary_risk_config() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        DELETE FROM account_risk_configs r USING broker_accounts a WHERE r.account_id = a.id AND a.user_id = OLD.user_id AND a.is_primary;
        RETURN NULL;
      END IF;
      INSERT INTO account_risk_configs (account_id, user_id, config, preset, updated_at)
      VALUES (broker_primary_account(NEW.user_id), NEW.user_id, NEW.config, NEW.preset, NEW.updated_at)
      ON CONFLICT (account_id) DO UPDATE SET config = EXCLUDED.config, preset = EXCLUDED.preset, updated_at = EXCLUDED.updated_at;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_risk_config AFTER INSERT OR UPDATE OR DELETE ON risk_engine_configs FOR EACH ROW EXECUTE FUNCTION broker_primary_risk_config()`.execute(db)

  await mirrorCredentialsToPrimaryLogin(db)
}

/**
 * Saved credentials are the primary's login: updated in place (a new password serves every account under
 * it), or a new login when the broker or environment changed while other accounts still use the old one.
 * Deleted credentials unlink the primary; the login goes when no account uses it.
 */
async function mirrorCredentialsToPrimaryLogin(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION broker_primary_login() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE account uuid; login uuid; moved boolean;
    BEGIN
      IF TG_OP = 'DELETE' THEN
        SELECT id, login_id INTO account, login FROM broker_accounts WHERE user_id = OLD.user_id AND is_primary;
        IF account IS NULL THEN RETURN NULL; END IF;
        UPDATE broker_accounts SET login_id = NULL, broker_account_ref = NULL, updated_at = now() WHERE id = account;
        DELETE FROM broker_logins l WHERE l.id = login AND NOT EXISTS (SELECT 1 FROM broker_accounts a WHERE a.login_id = l.id);
        RETURN NULL;
      END IF;
      account := broker_primary_account(NEW.user_id);
      SELECT login_id INTO login FROM broker_accounts WHERE id = account;
      IF login IS NOT NULL THEN
        SELECT (l.broker <> NEW.broker OR l.environment <> NEW.environment)
          AND EXISTS (SELECT 1 FROM broker_accounts a WHERE a.login_id = l.id AND a.id <> account)
        INTO moved FROM broker_logins l WHERE l.id = login;
        IF moved THEN login := NULL; END IF;
      END IF;
      IF login IS NULL THEN
        INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at)
        VALUES (NEW.user_id, NEW.broker, NEW.environment, NEW.account_id, NEW.key_id, NEW.secret_iv, NEW.secret_tag, NEW.secret_ciphertext, NEW.created_at, NEW.updated_at)
        RETURNING id INTO login;
      ELSE
        UPDATE broker_logins SET broker = NEW.broker, environment = NEW.environment, bound_account_ref = NEW.account_id,
          key_id = NEW.key_id, secret_iv = NEW.secret_iv, secret_tag = NEW.secret_tag, secret_ciphertext = NEW.secret_ciphertext,
          updated_at = NEW.updated_at
        WHERE id = login;
      END IF;
      UPDATE broker_accounts SET login_id = login, broker_account_ref = NEW.account_id, updated_at = now() WHERE id = account;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_login AFTER INSERT OR UPDATE OR DELETE ON broker_credentials FOR EACH ROW EXECUTE FUNCTION broker_primary_login()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS broker_primary_login ON broker_credentials`.execute(db)
  await sql`DROP TRIGGER IF EXISTS broker_primary_risk_config ON risk_engine_configs`.execute(db)
  await sql`DROP TRIGGER IF EXISTS broker_primary_live_trading ON trading_settings`.execute(db)
  await sql`DROP TRIGGER IF EXISTS broker_primary_for_new_user ON users`.execute(db)
  for (const fn of ['broker_primary_login', 'broker_primary_risk_config', 'broker_primary_live_trading', 'broker_primary_for_new_user']) {
    await sql`DROP FUNCTION IF EXISTS ${sql.raw(fn)}()`.execute(db)
  }
  await sql`DROP FUNCTION IF EXISTS broker_primary_account(varchar)`.execute(db)
  await db.schema.dropTable('account_risk_configs').ifExists().execute()
  await db.schema.dropTable('broker_accounts').ifExists().execute()
  await db.schema.dropTable('broker_logins').ifExists().execute()
}
