import { findPrimaryLogin, sql, type BrokerEnvironment, type BrokerName, type Database, type PrimaryLoginRow, type Transaction } from '@signals/db'
import type { SealedSecret } from '@signals/secrets'
import { isLinked } from './broker-accounts.ts'

// The trader's broker credentials (the spec's `/api/broker-credentials`) are the primary account's login
// (issue 22; docs/decisions/accounts.md, "Built: the login mirror dropped"): the `broker_logins` row the
// primary links, with the primary's `broker_account_ref` as the account id, read by `findPrimaryLogin`
// (@signals/db; the connector opens the same row). The spec's `broker_credentials` table is written from it
// by a trigger; nothing here touches that table.

/** The primary, locked until the transaction ends: every change of the trader's login is decided one after the other. */
async function lockPrimary(trx: Transaction<Database>, userId: string) {
  return trx.selectFrom('broker_accounts').select(['id', 'login_id']).where('user_id', '=', userId).where('is_primary', '=', true).forUpdate().executeTakeFirst()
}

/** True when an account other than `accountId` uses the login. */
async function usedByOthers(trx: Transaction<Database>, loginId: string, accountId: string): Promise<boolean> {
  const row = await trx.selectFrom('broker_accounts').select('id').where('login_id', '=', loginId).where('id', '<>', accountId).executeTakeFirst()
  return row !== undefined
}

/**
 * Saves the trader's broker credentials as their primary's login; undefined when there is no such user,
 * `account_taken` (nothing saved) when the login stays shared and another of the trader's accounts under it
 * is on the broker account named: two accounts on one broker account would each place every alert's order
 * (`POST /api/accounts` refuses the same). The login is updated in place (a new password serves every
 * account under it), or a new one is made when the broker or environment changed while other accounts still
 * use the old one (they keep it). The primary is locked first, then its login. `updated_at` always advances
 * past the login it replaces.
 */
export async function savePrimaryLogin(
  trx: Transaction<Database>,
  userId: string,
  clear: { broker: BrokerName; environment: BrokerEnvironment; accountId: string },
  sealed: SealedSecret,
): Promise<PrimaryLoginRow | 'account_taken' | undefined> {
  const primary = await lockPrimary(trx, userId)
  if (!primary) return undefined
  const current = primary.login_id
    ? await trx.selectFrom('broker_logins').select(['id', 'broker', 'environment', 'updated_at']).where('id', '=', primary.login_id).forUpdate().executeTakeFirst()
    : undefined
  const moved = current !== undefined && (current.broker !== clear.broker || current.environment !== clear.environment) && (await usedByOthers(trx, current.id, primary.id))
  if (current && !moved && (await isLinked(trx, current.id, clear.accountId, primary.id))) return 'account_taken'
  const values = {
    broker: clear.broker,
    environment: clear.environment,
    bound_account_ref: clear.accountId,
    key_id: sealed.keyId,
    secret_iv: sealed.iv,
    secret_tag: sealed.tag,
    secret_ciphertext: sealed.ciphertext,
    updated_at: current ? sql<Date>`greatest(clock_timestamp(), ${current.updated_at}::timestamptz + interval '1 microsecond')` : sql<Date>`clock_timestamp()`,
  }
  const login =
    current && !moved
      ? await trx.updateTable('broker_logins').set(values).where('id', '=', current.id).returning('id').executeTakeFirstOrThrow()
      : await trx.insertInto('broker_logins').values({ user_id: userId, ...values, created_at: sql<Date>`clock_timestamp()` }).returning('id').executeTakeFirstOrThrow()
  await trx
    .updateTable('broker_accounts')
    .set({ login_id: login.id, broker_account_ref: clear.accountId, updated_at: sql<Date>`clock_timestamp()` })
    .where('id', '=', primary.id)
    .execute()
  return findPrimaryLogin(trx, userId)
}

/**
 * Removes the trader's broker credentials: the primary is unlinked (it keeps its switches and risk
 * configuration) and its login goes when no other account uses it. True when there was one.
 */
export async function deletePrimaryLogin(trx: Transaction<Database>, userId: string): Promise<boolean> {
  const primary = await lockPrimary(trx, userId)
  const loginId = primary?.login_id
  if (!primary || !loginId) return false
  // The login is locked before the primary's unlink (whose trigger takes the spec's row): login, then spec row, the
  // order credentials:reseal takes them in too (the other way round they deadlocked). Locked before the look as
  // well: an account being added or removed under it (each locks it first) is seen, never cascaded away or left.
  await trx.selectFrom('broker_logins').select('id').where('id', '=', loginId).forUpdate().execute()
  await trx.updateTable('broker_accounts').set({ login_id: null, broker_account_ref: null, updated_at: sql<Date>`clock_timestamp()` }).where('id', '=', primary.id).execute()
  if (!(await usedByOthers(trx, loginId, primary.id))) await trx.deleteFrom('broker_logins').where('id', '=', loginId).execute()
  return true
}
