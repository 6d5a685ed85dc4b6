import { sql, type BrokerEnvironment, type BrokerName, type Database, type Kysely, type Transaction } from '@signals/db'
import type { SealedSecret } from '@signals/secrets'

type Db = Kysely<Database> | Transaction<Database>

/** An account with the venue of its login. */
export interface AccountRow {
  id: string
  user_id: string
  name: string
  is_primary: boolean
  login_id: string | null
  broker_account_ref: string | null
  live_trading: boolean
  auto_place: boolean
  created_at: Date
  updated_at: Date
  broker: BrokerName | null
  environment: BrokerEnvironment | null
}

function accounts(db: Db) {
  return db
    .selectFrom('broker_accounts as a')
    .leftJoin('broker_logins as l', 'l.id', 'a.login_id')
    .select(['a.id', 'a.user_id', 'a.name', 'a.is_primary', 'a.login_id', 'a.broker_account_ref', 'a.live_trading', 'a.auto_place', 'a.created_at', 'a.updated_at', 'l.broker', 'l.environment'])
}

/** The trader's accounts, the primary first, then in the order they were added. */
export async function listAccounts(db: Db, userId: string): Promise<AccountRow[]> {
  return accounts(db).where('a.user_id', '=', userId).orderBy('a.is_primary', 'desc').orderBy('a.created_at').orderBy('a.id').execute()
}

/** One of the trader's accounts; undefined when it does not exist or is someone else's. */
export async function findAccount(db: Db, userId: string, accountId: string): Promise<AccountRow | undefined> {
  return accounts(db).where('a.user_id', '=', userId).where('a.id', '=', accountId).executeTakeFirst()
}

export async function findPrimaryAccount(db: Db, userId: string): Promise<AccountRow | undefined> {
  return accounts(db).where('a.user_id', '=', userId).where('a.is_primary', '=', true).executeTakeFirst()
}

/** One of the trader's logins (its venue), or undefined. `lock` holds it until the transaction ends. */
export async function findLogin(db: Db, userId: string, loginId: string, lock = false): Promise<{ id: string; broker: BrokerName; environment: BrokerEnvironment } | undefined> {
  const query = db.selectFrom('broker_logins').select(['id', 'broker', 'environment']).where('user_id', '=', userId).where('id', '=', loginId)
  return (lock ? query.forUpdate() : query).executeTakeFirst()
}

/** True when the login already serves that broker account (through an account other than `exceptAccountId`, if given). */
export async function isLinked(db: Db, loginId: string, brokerAccountRef: string, exceptAccountId?: string): Promise<boolean> {
  const row = await db
    .selectFrom('broker_accounts')
    .select('id')
    .where('login_id', '=', loginId)
    .where('broker_account_ref', '=', brokerAccountRef)
    .$if(exceptAccountId !== undefined, (query) => query.where('id', '<>', exceptAccountId ?? ''))
    .executeTakeFirst()
  return row !== undefined
}

/** A new login, sealed for (user, broker, environment, `boundAccountRef`). */
export async function insertLogin(
  trx: Transaction<Database>,
  login: { userId: string; broker: BrokerName; environment: BrokerEnvironment; boundAccountRef: string },
  sealed: SealedSecret,
): Promise<string> {
  const row = await trx
    .insertInto('broker_logins')
    .values({
      user_id: login.userId,
      broker: login.broker,
      environment: login.environment,
      bound_account_ref: login.boundAccountRef,
      key_id: sealed.keyId,
      secret_iv: sealed.iv,
      secret_tag: sealed.tag,
      secret_ciphertext: sealed.ciphertext,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** An additional (not primary) account under one of the trader's logins, switched off. */
export async function insertAccount(trx: Transaction<Database>, account: { userId: string; loginId: string; brokerAccountRef: string; name: string }): Promise<string> {
  const row = await trx
    .insertInto('broker_accounts')
    .values({ user_id: account.userId, login_id: account.loginId, broker_account_ref: account.brokerAccountRef, name: account.name })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** Changes the columns given (the primary's switches are saved by savePrimarySwitches, which stamps the setting's time). */
export async function updateAccount(trx: Transaction<Database>, accountId: string, change: { name?: string; liveTrading?: boolean; autoPlace?: boolean }): Promise<void> {
  const set = {
    ...(change.name === undefined ? {} : { name: change.name }),
    ...(change.liveTrading === undefined ? {} : { live_trading: change.liveTrading }),
    ...(change.autoPlace === undefined ? {} : { auto_place: change.autoPlace }),
  }
  if (Object.keys(set).length === 0) return
  await trx.updateTable('broker_accounts').set({ ...set, updated_at: sql<Date>`clock_timestamp()` }).where('id', '=', accountId).execute()
}

/** Removes an additional account (its risk configuration goes with it) and its login when no account uses it any more. */
export async function deleteAccount(trx: Transaction<Database>, account: { id: string; login_id: string | null }): Promise<void> {
  // The login locked first, as a credentials delete does: of two removals at once (this account, the primary's
  // credentials) the second waits and sees the first's, so the last account gone takes the login with it.
  if (account.login_id !== null) await trx.selectFrom('broker_logins').select('id').where('id', '=', account.login_id).forUpdate().execute()
  await trx.deleteFrom('broker_accounts').where('id', '=', account.id).where('is_primary', '=', false).execute()
  if (account.login_id === null) return
  await trx
    .deleteFrom('broker_logins')
    .where('id', '=', account.login_id)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('broker_accounts').select('id').where('login_id', '=', account.login_id))))
    .execute()
}
