import { sql, type Database, type Kysely, type User } from '@signals/db'
import type { Profile } from '../oidc/profile.ts'

/**
 * The ban on this account, if any: on its e-mail (stored lower-cased) or on its subject, so an account
 * whose Google e-mail changed after the ban stays banned.
 */
export async function findBan(db: Kysely<Database>, profile: { email: string; sub: string }): Promise<{ reason: string | null } | undefined> {
  return db
    .selectFrom('banned_emails')
    .select('reason')
    .where((eb) => eb.or([eb('email', '=', profile.email.toLowerCase()), eb('sub', '=', profile.sub)]))
    .orderBy('created_at', 'desc')
    .executeTakeFirst()
}

/**
 * Inserts or refreshes the user at sign-in (spec: email, name, picture, approved and updated_at refreshed).
 * `approved` follows DESIGN decision 1: stored approval OR administrator e-mail, computed in the statement
 * itself so a concurrent approval by an administrator is never lost.
 */
export async function upsertSignedInUser(db: Kysely<Database>, profile: Profile, isAdmin: boolean): Promise<User> {
  return db
    .insertInto('users')
    .values({
      user_id: profile.sub,
      email: profile.email,
      name: profile.name,
      picture: profile.picture,
      approved: isAdmin,
      role: isAdmin ? 'admin' : 'trader',
    })
    .onConflict((conflict) =>
      conflict.column('user_id').doUpdateSet((eb) => ({
        email: eb.ref('excluded.email'),
        name: eb.ref('excluded.name'),
        picture: eb.ref('excluded.picture'),
        role: eb.ref('excluded.role'),
        approved: sql<boolean>`users.approved OR excluded.approved`,
        updated_at: sql<Date>`now()`,
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function findUser(db: Kysely<Database>, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst()
}
