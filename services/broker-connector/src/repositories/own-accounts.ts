import type { Database, Kysely } from '@signals/db'

/** Whether the broker account is the user's own (a filter on another trader's account answers as a missing one). */
export async function isOwnAccount(db: Kysely<Database>, userId: string, accountId: string): Promise<boolean> {
  const row = await db.selectFrom('broker_accounts').select('id').where('id', '=', accountId).where('user_id', '=', userId).executeTakeFirst()
  return row !== undefined
}
