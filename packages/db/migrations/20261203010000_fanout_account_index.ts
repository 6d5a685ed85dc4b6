import { sql, type Kysely } from 'kysely'

// Issue 22 item 8 (the fan-out bench's bar, docs/decisions/fanout-speed.md). Two costs that came with the
// broker accounts, neither changing what is stored:
//
// - `alerts_account_recent_idx` (account_id, id DESC) took one insert per record at a random place (account ids
//   are random uuids; the fan-out writes in user order): it was most of what the 10,000-record fan-out gained
//   since records carry their account. Every read by account is within one trader (`GET /api/alerts?accountId=`
//   lists a user's records; a removed account's records are its trader's), so `alerts_user_recent_idx`
//   (user_id, id DESC) serves them, the account a filter. Trades keep theirs (not fanned out).
// - The live-trading mirror matched `id = broker_primary_account(user)`, a volatile function, so Postgres
//   scanned every broker account and called it per row: each write of a trader's live_trading cost a scan of
//   all accounts (10,000 live traders seeded one per row: minutes). The id is now looked up once.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS alerts_account_recent_idx`.execute(db)
  await sql`
    CREATE OR REPLACE FUNCTION broker_account_unlink_records() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE alerts SET account_id = NULL WHERE user_id = OLD.user_id AND account_id = OLD.id; RETURN NULL; END $$`.execute(db)
  await sql`
    CREATE OR REPLACE FUNCTION broker_primary_live_trading() RETURNS trigger LANGUAGE plpgsql AS $$
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
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION broker_primary_live_trading() RETURNS trigger LANGUAGE plpgsql AS $$
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
  await sql`
    CREATE OR REPLACE FUNCTION broker_account_unlink_records() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE alerts SET account_id = NULL WHERE account_id = OLD.id; RETURN NULL; END $$`.execute(db)
  await sql`CREATE INDEX IF NOT EXISTS alerts_account_recent_idx ON alerts (account_id, id DESC) WHERE account_id IS NOT NULL`.execute(db)
}
