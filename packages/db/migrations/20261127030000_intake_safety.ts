import { sql, type Kysely } from 'kysely'

// Intake safety (issue 22, item 7). What each intake-log entry now says besides its outcome:
// - user_id: the user the payload named, when it could be read, so a trader sees the intake of alerts
//   that named them (GET /api/intake);
// - authenticated: the request passed the webhook secret check (or ingest had none to check). The admin's
//   replay adds the real secret, so only an authenticated refusal may be replayed; rows written before
//   this migration are not known to be, and stay unreplayable;
// - body_truncated: a refused request keeps a truncated body (INTAKE_REFUSED_BODY_BYTES), never replayed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('intake_log')
    .addColumn('user_id', 'varchar(255)')
    .addColumn('authenticated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('body_truncated', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()
  await sql`CREATE INDEX intake_log_user_idx ON intake_log (user_id, id DESC) WHERE user_id IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS intake_log_user_idx`.execute(db)
  await db.schema.alterTable('intake_log').dropColumn('user_id').dropColumn('authenticated').dropColumn('body_truncated').execute()
}
