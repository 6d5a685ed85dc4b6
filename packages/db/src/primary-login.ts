import type { Kysely, Transaction } from 'kysely'
import type { BrokerEnvironment, BrokerName, Database } from './schema.ts'

/**
 * The trader's broker credentials: their primary account's login (`broker_logins`), with the primary's
 * `broker_account_ref` as the account id (issue 22; docs/decisions/accounts.md, "Built: the login mirror
 * dropped"). In the shape of the spec's credentials: what the settings service summarises and saves over, and
 * what the connector's session opens (the secret opens only for the account it was sealed for).
 */
export interface PrimaryLoginRow {
  user_id: string
  broker: BrokerName
  environment: BrokerEnvironment
  account_id: string
  key_id: string
  secret_iv: Buffer
  secret_tag: Buffer
  secret_ciphertext: Buffer
  created_at: Date
  updated_at: Date
}

/** The trader's broker credentials, or undefined when their primary account has no login. */
export async function findPrimaryLogin(db: Kysely<Database> | Transaction<Database>, userId: string): Promise<PrimaryLoginRow | undefined> {
  const row = await db
    .selectFrom('broker_accounts as a')
    .innerJoin('broker_logins as l', 'l.id', 'a.login_id')
    .select(['a.user_id', 'l.broker', 'l.environment', 'a.broker_account_ref', 'l.key_id', 'l.secret_iv', 'l.secret_tag', 'l.secret_ciphertext', 'l.created_at', 'l.updated_at'])
    .where('a.user_id', '=', userId)
    .where('a.is_primary', '=', true)
    .executeTakeFirst()
  if (!row || row.broker_account_ref === null) return undefined // a linked account always has its ref (a check constraint)
  const { broker_account_ref: accountId, ...login } = row
  return { ...login, account_id: accountId }
}
