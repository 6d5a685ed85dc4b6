import { sql, type Database, type Kysely, type User } from '@signals/db'
import type { TimeKey } from '@signals/http-kit'

export type UserFilter = 'all' | 'pending' | 'approved'

/** `%`, `_` and `\` match themselves in a search, not as wildcards. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Users, newest sign-up first (then by user id), one page: `before` = the last row of the previous page.
 * Each row carries its sign-up time in microseconds (`createdMicros`), the precision Postgres keeps.
 */
export async function listUsers(
  db: Kysely<Database>,
  query: { filter: UserFilter; search?: string; limit: number; before?: TimeKey },
): Promise<(User & { banned: boolean; createdMicros: string })[]> {
  const createdMicros = sql<string>`extract(epoch from users.created_at) * 1000000`
  let select = db
    .selectFrom('users')
    .selectAll('users')
    .select(sql<boolean>`EXISTS (SELECT 1 FROM banned_emails b WHERE b.email = lower(users.email) OR b.sub = users.user_id)`.as('banned'))
    .select(sql<string>`(${createdMicros})::bigint::text`.as('createdMicros'))
  if (query.filter !== 'all') select = select.where('approved', '=', query.filter === 'approved')
  const search = query.search?.trim()
  if (search) select = select.where(sql<boolean>`lower(users.email) LIKE ${`%${escapeLike(search.toLowerCase())}%`}`)
  const before = query.before
  if (before !== undefined) {
    const micros = sql`${before.micros}::numeric`
    select = select.where(sql<boolean>`(${createdMicros} < ${micros} OR (${createdMicros} = ${micros} AND users.user_id > ${before.key}))`)
  }
  return select.orderBy('created_at', 'desc').orderBy('user_id').limit(query.limit).execute()
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
