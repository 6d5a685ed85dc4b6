import { sql, type Kysely } from 'kysely'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the second mirror goes. The spec's
// `live_trading` setting is the primary account's switches (`broker_accounts.live_trading` / `auto_place`):
// the settings service, the admin's ban and the kill switch write them there, the connector reads them there.
//
// - Moved first: each trader's setting into their primary (the setting was the source of truth until now; the
//   trigger kept them equal), with its time as `switches_updated_at` (the setting's `updatedAt`, which the
//   account's `updated_at` is not: a rename moves that). A user without a primary gets one to hold it.
// - Then the trigger and its function go. The setting's rows stay, as the spec's data model has them (a row per
//   user and key, `live_trading` among the keys), written now FROM the primary's switches by a trigger the
//   other way (`broker_primary_switches_setting`): a copy for whoever reads the spec's table, never read by
//   the platform. Nothing of ours writes a `live_trading` row (the `Database` type allows `risk_strategy`
//   only); a row written by hand changes no switch.
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
  await sql`
    CREATE FUNCTION broker_primary_switches_setting() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO trading_settings (user_id, setting_key, setting_value, updated_at)
      VALUES (NEW.user_id, 'live_trading', jsonb_build_object('enabled', NEW.live_trading, 'autoPlaceOrders', NEW.auto_place), NEW.switches_updated_at)
      ON CONFLICT (user_id, setting_key) DO UPDATE SET setting_value = EXCLUDED.setting_value, updated_at = EXCLUDED.updated_at;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER broker_primary_switches_setting AFTER INSERT OR UPDATE OF live_trading, auto_place, switches_updated_at ON broker_accounts
    FOR EACH ROW WHEN (NEW.is_primary AND NEW.switches_updated_at IS NOT NULL) EXECUTE FUNCTION broker_primary_switches_setting()`.execute(db)
  await sql`CREATE INDEX broker_accounts_live_primary_idx ON broker_accounts (user_id) WHERE is_primary AND live_trading`.execute(db)
}

/** The setting's rows as each primary has them (stamped), and the mirror from the setting again. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX broker_accounts_live_primary_idx`.execute(db)
  await sql`DROP TRIGGER broker_primary_switches_setting ON broker_accounts`.execute(db)
  await sql`DROP FUNCTION broker_primary_switches_setting()`.execute(db)
  await sql`
    INSERT INTO trading_settings (user_id, setting_key, setting_value, updated_at)
    SELECT user_id, 'live_trading', jsonb_build_object('enabled', live_trading, 'autoPlaceOrders', auto_place), switches_updated_at
    FROM broker_accounts WHERE is_primary AND switches_updated_at IS NOT NULL
    ON CONFLICT (user_id, setting_key) DO UPDATE SET setting_value = EXCLUDED.setting_value, updated_at = EXCLUDED.updated_at`.execute(db)
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
