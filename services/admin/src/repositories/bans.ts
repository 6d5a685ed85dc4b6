import { sql, type BannedEmail, type Database, type Kysely } from '@signals/db'

/**
 * Bans (or re-bans with a new reason) an already lower-cased e-mail, recording the account's `sub` when
 * one is known (a later change of e-mail does not lift the ban); `created` says whether it is new.
 */
export async function upsertBan(db: Kysely<Database>, email: string, reason: string | null, sub: string | null): Promise<{ ban: BannedEmail; created: boolean }> {
  const row = await db
    .insertInto('banned_emails')
    .values({ email, reason, sub })
    .onConflict((conflict) => conflict.column('email').doUpdateSet((eb) => ({ reason, sub: eb.fn.coalesce(eb.val(sub), eb.ref('banned_emails.sub')) })))
    .returning(['id', 'email', 'reason', 'created_at', 'sub', sql<boolean>`xmax = 0`.as('created')])
    .executeTakeFirstOrThrow()
  const { created, ...ban } = row
  return { ban, created }
}

export async function deleteBan(db: Kysely<Database>, email: string): Promise<BannedEmail | undefined> {
  return db.deleteFrom('banned_emails').where('email', '=', email).returningAll().executeTakeFirst()
}

export async function isBanned(db: Kysely<Database>, email: string): Promise<boolean> {
  const row = await db.selectFrom('banned_emails').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst()
  return row !== undefined
}

export async function listBans(db: Kysely<Database>, query: { offset: number; limit: number }): Promise<{ bans: BannedEmail[]; total: number }> {
  const [bans, count] = await Promise.all([
    db.selectFrom('banned_emails').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(query.offset).limit(query.limit).execute(),
    db.selectFrom('banned_emails').select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { bans, total: Number(count.total) }
}
