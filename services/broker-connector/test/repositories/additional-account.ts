import type { Database, Kysely } from '@signals/db'

/**
 * An additional account beside the trader's primary (issue 22: a login of its own, broker account EVAL2), with
 * a risk-engine configuration of its own when one is given. Returns the account's id.
 */
export async function additionalAccount(db: Kysely<Database>, userId: string, config?: unknown): Promise<string> {
  const login = await db
    .insertInto('broker_logins')
    .values({ user_id: userId, broker: 'paper', environment: 'demo', bound_account_ref: 'EVAL2', key_id: 'k', secret_iv: Buffer.alloc(12), secret_tag: Buffer.alloc(16), secret_ciphertext: Buffer.alloc(8) })
    .returning('id')
    .executeTakeFirstOrThrow()
  const account = await db.insertInto('broker_accounts').values({ user_id: userId, login_id: login.id, broker_account_ref: 'EVAL2', name: 'Eval 2' }).returning('id').executeTakeFirstOrThrow()
  if (config !== undefined) await db.insertInto('account_risk_configs').values({ account_id: account.id, user_id: userId, config: JSON.stringify(config) }).execute()
  return account.id
}
