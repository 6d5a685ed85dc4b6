import { sql, type Database, type Kysely, type User } from '@signals/db'

export type UserFilter = 'all' | 'pending' | 'approved'

/** `%`, `_` and `\` match themselves in a search, not as wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

export async function listUsers(
  db: Kysely<Database>,
  query: { filter: UserFilter; search?: string; offset: number; limit: number },
): Promise<{ users: (User & { banned: boolean })[]; total: number }> {
  let base = db.selectFrom('users')
  if (query.filter !== 'all') base = base.where('approved', '=', query.filter === 'approved')
  const search = query.search?.trim()
  if (search) base = base.where(sql<boolean>`lower(users.email) LIKE ${`%${escapeLike(search.toLowerCase())}%`}`)
  const [users, count] = await Promise.all([
    base
      .selectAll('users')
      .select(sql<boolean>`EXISTS (SELECT 1 FROM banned_emails b WHERE b.email = lower(users.email) OR b.sub = users.user_id)`.as('banned'))
      .orderBy('created_at', 'desc')
      .orderBy('user_id')
      .offset(query.offset)
      .limit(query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ])
  return { users, total: Number(count.total) }
}

export async function setApproved(db: Kysely<Database>, userId: string, approved: boolean): Promise<User | undefined> {
  return db
    .updateTable('users')
    .set({ approved, updated_at: sql<Date>`now()` })
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst()
}

/** Every user signed in under this (lower-cased) e-mail; a provider may have given it to more than one subject. */
export async function usersWithEmail(db: Kysely<Database>, email: string): Promise<User[]> {
  return db.selectFrom('users').selectAll().where(sql<boolean>`lower(email) = ${email}`).execute()
}
