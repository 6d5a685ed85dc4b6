import { sql, type Kysely } from 'kysely'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the third mirror goes. The trader's
// broker login is the primary account's login (`broker_logins` through `broker_accounts.login_id`, the account
// id being the primary's `broker_account_ref`): the settings service writes it there, the connector and
// `credentials:reseal` read it there.
//
// - First, each primary's login is brought to the trader's credentials row where they differ (the row was the
//   source of truth until now; the trigger kept them equal, so only a write past it differs). Touching such a
//   row runs the mirror once more on it, so the rules are exactly the trigger's (the login updated in place, or
//   a new one when the broker or environment changed while other accounts use the old; a user without a primary
//   gets one). A primary linked to a login with no credentials row (the row deleted past the trigger) is
//   unlinked as the trigger's delete would have done: the trader had no credentials.
// - Then the trigger and its function go. The spec's `broker_credentials` rows stay (its data model stores the
//   credentials per user), written now FROM the primary's login by triggers the other way: a copy for whoever
//   reads the spec's table, never read by the platform. Nothing of ours writes it (it left the `Database` type);
//   a row written by hand changes no login.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE broker_credentials c SET updated_at = c.updated_at
    WHERE NOT EXISTS (
      SELECT 1 FROM broker_accounts a JOIN broker_logins l ON l.id = a.login_id
      WHERE a.user_id = c.user_id AND a.is_primary AND a.broker_account_ref = c.account_id
        AND l.broker = c.broker AND l.environment = c.environment AND l.bound_account_ref = c.account_id AND l.key_id = c.key_id
        AND l.secret_iv = c.secret_iv AND l.secret_tag = c.secret_tag AND l.secret_ciphertext = c.secret_ciphertext AND l.updated_at = c.updated_at)`.execute(db)
  await unlinkPrimariesWithoutCredentials(db)
  await sql`DROP TRIGGER broker_primary_login ON broker_credentials`.execute(db)
  await sql`DROP FUNCTION broker_primary_login()`.execute(db)
  await writeCredentialsFromPrimaryLogin(db)
}

async function unlinkPrimariesWithoutCredentials(db: Kysely<any>): Promise<void> {
  const stale = await sql<{ id: string; login_id: string }>`
    SELECT id, login_id FROM broker_accounts a
    WHERE a.is_primary AND a.login_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM broker_credentials c WHERE c.user_id = a.user_id)`.execute(db)
  if (stale.rows.length === 0) return
  await sql`UPDATE broker_accounts SET login_id = NULL, broker_account_ref = NULL, updated_at = now() WHERE id = ANY(${stale.rows.map((row) => row.id)}::uuid[])`.execute(db)
  await sql`
    DELETE FROM broker_logins l WHERE l.id = ANY(${stale.rows.map((row) => row.login_id)}::uuid[])
      AND NOT EXISTS (SELECT 1 FROM broker_accounts a WHERE a.login_id = l.id)`.execute(db)
}

/**
 * The spec's row of a user is their primary's login (the primary's account id beside it), or no row when the
 * primary has none. Written on every change of the primary's link or of its login, in the writer's transaction.
 */
async function writeCredentialsFromPrimaryLogin(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION broker_credentials_from_primary(owner varchar) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO broker_credentials (user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at)
      SELECT a.user_id, l.broker, l.environment, a.broker_account_ref, l.key_id, l.secret_iv, l.secret_tag, l.secret_ciphertext, l.created_at, l.updated_at
      FROM broker_accounts a JOIN broker_logins l ON l.id = a.login_id
      WHERE a.user_id = owner AND a.is_primary
      ON CONFLICT (user_id) DO UPDATE SET broker = EXCLUDED.broker, environment = EXCLUDED.environment, account_id = EXCLUDED.account_id,
        key_id = EXCLUDED.key_id, secret_iv = EXCLUDED.secret_iv, secret_tag = EXCLUDED.secret_tag, secret_ciphertext = EXCLUDED.secret_ciphertext,
        updated_at = EXCLUDED.updated_at;
      IF NOT FOUND THEN DELETE FROM broker_credentials WHERE user_id = owner; END IF;
    END $$`.execute(db)
  await sql`
    CREATE FUNCTION broker_primary_credentials_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'broker_logins' THEN
        PERFORM broker_credentials_from_primary(a.user_id) FROM broker_accounts a WHERE a.login_id = NEW.id AND a.is_primary;
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM broker_credentials_from_primary(OLD.user_id);
      ELSE
        PERFORM broker_credentials_from_primary(NEW.user_id);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_credentials_row AFTER INSERT OR UPDATE OF login_id, broker_account_ref ON broker_accounts
    FOR EACH ROW WHEN (NEW.is_primary) EXECUTE FUNCTION broker_primary_credentials_row()`.execute(db)
  await sql`CREATE TRIGGER broker_primary_credentials_row_gone AFTER DELETE ON broker_accounts
    FOR EACH ROW WHEN (OLD.is_primary) EXECUTE FUNCTION broker_primary_credentials_row()`.execute(db)
  await sql`CREATE TRIGGER broker_login_credentials_row AFTER UPDATE ON broker_logins FOR EACH ROW EXECUTE FUNCTION broker_primary_credentials_row()`.execute(db)
}

/** The spec's rows as each primary's login has them, and the mirror from the spec's rows again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER broker_login_credentials_row ON broker_logins`.execute(db)
  await sql`DROP TRIGGER broker_primary_credentials_row_gone ON broker_accounts`.execute(db)
  await sql`DROP TRIGGER broker_primary_credentials_row ON broker_accounts`.execute(db)
  await sql`DROP FUNCTION broker_primary_credentials_row()`.execute(db)
  await sql`SELECT broker_credentials_from_primary(user_id) FROM (SELECT user_id FROM broker_accounts WHERE is_primary UNION SELECT user_id FROM broker_credentials) AS owners`.execute(db)
  await sql`DROP FUNCTION broker_credentials_from_primary(varchar)`.execute(db)
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
