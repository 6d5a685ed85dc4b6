import { sql, type Kysely } from 'kysely'

// Issue 22 item 1, stage 3a of docs/decisions/accounts.md: alert records and trades carry the broker
// account they belong to. Every existing row of a trader gets that trader's primary account (the only one
// that could trade until now); a test record (no trader) has none. `user_id` stays: ownership, the spec's
// shapes and every query keyed by user.
//
// ON DELETE SET NULL: removing an additional account keeps its history (records and trades stay the
// trader's), they only lose the account they named. The indexes serve `GET /api/alerts|trades?accountId=`
// (newest first within the account) and the foreign key's delete.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['alerts', 'trades'] as const) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN account_id uuid REFERENCES broker_accounts (id) ON DELETE SET NULL`.execute(db)
    await sql`
      UPDATE ${sql.table(table)} t SET account_id = a.id
      FROM broker_accounts a
      WHERE a.user_id = t.user_id AND a.is_primary`.execute(db)
    await sql`CREATE INDEX ${sql.raw(`${table}_account_recent_idx`)} ON ${sql.table(table)} (account_id, id DESC) WHERE account_id IS NOT NULL`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['alerts', 'trades'] as const) {
    await sql`DROP INDEX IF EXISTS ${sql.raw(`${table}_account_recent_idx`)}`.execute(db)
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN IF EXISTS account_id`.execute(db)
  }
}
