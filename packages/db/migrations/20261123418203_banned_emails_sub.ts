import { sql, type Kysely } from 'kysely'

// A ban names the account too (its OpenID Connect `sub`, users.user_id), not only its e-mail: the e-mail
// of a Google account can change, its sub cannot. Null for a ban of an e-mail no account has used yet.
// No foreign key: a ban outlives the user row it was recorded from.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('banned_emails').addColumn('sub', 'varchar(255)').execute()
  await sql`CREATE INDEX banned_emails_sub_idx ON banned_emails (sub) WHERE sub IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX IF EXISTS banned_emails_sub_idx`.execute(db)
  await db.schema.alterTable('banned_emails').dropColumn('sub').execute()
}
