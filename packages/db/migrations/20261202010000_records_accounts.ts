import { sql, type Kysely } from 'kysely'

// Issue 22 item 1, stage 3a of docs/decisions/accounts.md: alert records and trades carry the broker
// account they belong to. Every existing row of a trader gets that trader's primary account (the only one
// that could trade until now); a test record (no trader) has none. `user_id` stays: ownership, the spec's
// shapes and every query keyed by user.
//
// Removing an additional account keeps its history (records and trades stay the trader's); they only lose
// the account they named. Trades: a foreign key, ON DELETE SET NULL (one row per fill). Alert records: no
// foreign key, because the fan-out writes 10,000 of them in one statement and a foreign key checks each row
// (a sixth to a fifth of the statement's time, measured; issue 22 item 8 wants it no slower); the fan-out takes
// the ids from `broker_accounts` in that same statement, and a trigger on `broker_accounts` unlinks the
// records of a removed account as the foreign key would. The indexes serve `GET /api/alerts|trades?accountId=`
// (newest first within the account) and the unlinking.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE alerts ADD COLUMN account_id uuid`.execute(db)
  await sql`ALTER TABLE trades ADD COLUMN account_id uuid REFERENCES broker_accounts (id) ON DELETE SET NULL`.execute(db)
  for (const table of ['alerts', 'trades'] as const) {
    await sql`
      UPDATE ${sql.table(table)} t SET account_id = a.id
      FROM broker_accounts a
      WHERE a.user_id = t.user_id AND a.is_primary`.execute(db)
    await sql`CREATE INDEX ${sql.raw(`${table}_account_recent_idx`)} ON ${sql.table(table)} (account_id, id DESC) WHERE account_id IS NOT NULL`.execute(db)
  }
  await sql`
    CREATE FUNCTION broker_account_unlink_records() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE alerts SET account_id = NULL WHERE account_id = OLD.id; RETURN NULL; END $$`.execute(db)
  await sql`CREATE TRIGGER broker_account_unlink_records AFTER DELETE ON broker_accounts FOR EACH ROW EXECUTE FUNCTION broker_account_unlink_records()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS broker_account_unlink_records ON broker_accounts`.execute(db)
  await sql`DROP FUNCTION IF EXISTS broker_account_unlink_records()`.execute(db)
  for (const table of ['alerts', 'trades'] as const) {
    await sql`DROP INDEX IF EXISTS ${sql.raw(`${table}_account_recent_idx`)}`.execute(db)
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN IF EXISTS account_id`.execute(db)
  }
}
