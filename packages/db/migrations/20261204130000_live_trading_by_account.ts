import { sql, type Kysely } from 'kysely'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the second mirror goes. The spec's
// `live_trading` setting is the primary account's switches (`broker_accounts.live_trading` / `auto_place`):
// the settings service, the admin's ban and the kill switch write them there, the connector reads them there.
//
// - Moved first: each trader's setting into their primary (the setting was the source of truth until now; the
//   trigger kept them equal), with its time as `switches_updated_at` (the setting's `updatedAt`, which the
//   account's `updated_at` is not: a rename moves that). A user without a primary gets one to hold it.
// - Then the trigger and its function go, and the setting's rows with them: a stale copy of a money switch
//   must not be read by anyone, and `setting_key` allows only `risk_strategy`, so a write to the old place
//   fails instead of being lost.
// - The fan-out and the feeds read exactly the live primaries: `broker_accounts_live_primary_idx`, as
//   `trading_settings_live_users_idx` served the setting.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE broker_accounts ADD COLUMN switches_updated_at timestamptz`.execute(db)
  // Looked up once per user, not per account scanned (the function is volatile: fanout_account_index).
  await sql`SELECT broker_primary_account(user_id) FROM trading_settings WHERE setting_key = 'live_trading'`.execute(db)
  await sql`
    UPDATE broker_accounts a SET
      live_trading = coalesce(s.setting_value -> 'enabled' = 'true'::jsonb, false),
      auto_place = coalesce(s.setting_value -> 'autoPlaceOrders' = 'true'::jsonb, false),
      switches_updated_at = s.updated_at
    FROM trading_settings s
    WHERE s.setting_key = 'live_trading' AND a.user_id = s.user_id AND a.is_primary`.execute(db)
  await sql`DROP TRIGGER broker_primary_live_trading ON trading_settings`.execute(db)
  await sql`DROP FUNCTION broker_primary_live_trading()`.execute(db)
  await sql`DROP INDEX trading_settings_live_users_idx`.execute(db)
  await sql`DELETE FROM trading_settings WHERE setting_key = 'live_trading'`.execute(db)
  await sql`ALTER TABLE trading_settings DROP CONSTRAINT trading_settings_setting_key_check`.execute(db)
  await sql`ALTER TABLE trading_settings ADD CONSTRAINT trading_settings_setting_key_check CHECK (setting_key = 'risk_strategy')`.execute(db)
  await sql`CREATE INDEX broker_accounts_live_primary_idx ON broker_accounts (user_id) WHERE is_primary AND live_trading`.execute(db)
}

/** The setting's rows again, from each primary that had one (stamped), and the mirror. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX broker_accounts_live_primary_idx`.execute(db)
  await sql`ALTER TABLE trading_settings DROP CONSTRAINT trading_settings_setting_key_check`.execute(db)
  await sql`ALTER TABLE trading_settings ADD CONSTRAINT trading_settings_setting_key_check CHECK (setting_key IN ('risk_strategy', 'live_trading'))`.execute(db)
  await sql`
    INSERT INTO trading_settings (user_id, setting_key, setting_value, updated_at)
    SELECT user_id, 'live_trading', jsonb_build_object('enabled', live_trading, 'autoPlaceOrders', auto_place), switches_updated_at
    FROM broker_accounts WHERE is_primary AND switches_updated_at IS NOT NULL`.execute(db)
  await sql`CREATE INDEX trading_settings_live_users_idx ON trading_settings (user_id)
    WHERE setting_key = 'live_trading' AND setting_value -> 'enabled' = 'true'::jsonb`.execute(db)
  await sql`
    CREATE FUNCTION broker_primary_live_trading() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE primary_id uuid;
    BEGIN
      IF NEW.setting_key = 'live_trading' THEN
        primary_id := broker_primary_account(NEW.user_id);
        UPDATE broker_accounts SET
          live_trading = coalesce(NEW.setting_value -> 'enabled' = 'true'::jsonb, false),
          auto_place = coalesce(NEW.setting_value -> 'autoPlaceOrders' = 'true'::jsonb, false),
          updated_at = now()
        WHERE id = primary_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_live_trading AFTER INSERT OR UPDATE ON trading_settings FOR EACH ROW EXECUTE FUNCTION broker_primary_live_trading()`.execute(db)
  await sql`ALTER TABLE broker_accounts DROP COLUMN switches_updated_at`.execute(db)
}
