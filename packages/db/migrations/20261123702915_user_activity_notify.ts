import { sql, type Kysely } from 'kysely'

// The trader's page updates live: every committed insert or update of a user's alert record or trade
// sends a small NOTIFY on `user_activity` (payload {"userId","kind","id"}), which the broker connector
// relays to the bus. A trigger catches every write path (entry flow, fills, result alerts, reconciliation)
// without each having to remember to publish; NOTIFY is sent at commit only, so a rolled-back change is
// never announced. Test alerts (no user) are skipped.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE FUNCTION notify_user_activity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.user_id IS NOT NULL THEN
        PERFORM pg_notify('user_activity', json_build_object(
          'userId', NEW.user_id,
          'kind', CASE TG_TABLE_NAME WHEN 'alerts' THEN 'alert' ELSE 'trade' END,
          'id', NEW.id::text)::text);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`CREATE TRIGGER alerts_user_activity AFTER INSERT OR UPDATE ON alerts FOR EACH ROW EXECUTE FUNCTION notify_user_activity()`.execute(db)
  await sql`CREATE TRIGGER trades_user_activity AFTER INSERT OR UPDATE ON trades FOR EACH ROW EXECUTE FUNCTION notify_user_activity()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS trades_user_activity ON trades`.execute(db)
  await sql`DROP TRIGGER IF EXISTS alerts_user_activity ON alerts`.execute(db)
  await sql`DROP FUNCTION IF EXISTS notify_user_activity()`.execute(db)
}
