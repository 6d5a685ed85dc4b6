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

/** The ban on an e-mail (its reason), or undefined when it is not banned. */
export async function banOf(db: Kysely<Database>, email: string): Promise<{ reason: string | null } | undefined> {
  return db.selectFrom('banned_emails').select('reason').where('email', '=', email.toLowerCase()).executeTakeFirst()
}

/** The bans, newest first by ban id (a re-ban keeps its place), one page (`beforeId`: only older bans). */
export async function listBans(db: Kysely<Database>, query: { limit: number; beforeId?: number }): Promise<BannedEmail[]> {
  let select = db.selectFrom('banned_emails').selectAll()
  if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId)
  return select.orderBy('id', 'desc').limit(query.limit).execute()
}
