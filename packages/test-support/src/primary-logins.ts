import { sql, type BrokerEnvironment, type BrokerName, type Database, type Kysely } from '@signals/db'

/** A trader's broker login as a test or bench stores it: sealed already (for its user, broker, environment and account). */
export interface PrimaryLoginSeed {
  userId: string
  broker: BrokerName
  environment: BrokerEnvironment
  /** The broker account the primary trades, the one the secret was sealed for. */
  accountId: string
  sealed: { keyId: string; iv: Buffer; tag: Buffer; ciphertext: Buffer }
}

const BATCH = 500

const columnsOf = (login: PrimaryLoginSeed) => ({
  broker: login.broker,
  environment: login.environment,
  bound_account_ref: login.accountId,
  key_id: login.sealed.keyId,
  secret_iv: login.sealed.iv,
  secret_tag: login.sealed.tag,
  secret_ciphertext: login.sealed.ciphertext,
})

/**
 * Stores each trader's broker credentials where the platform keeps them (docs/decisions/accounts.md, "Built: the
 * login mirror dropped"): their primary account's login, replaced in place when the primary has one, a new login
 * linked to the primary otherwise. Set-based in batches, for benches of thousands of traders.
 */
export async function storePrimaryLogins(db: Kysely<Database>, logins: readonly PrimaryLoginSeed[]): Promise<void> {
  for (let i = 0; i < logins.length; i += BATCH) await storeBatch(db, logins.slice(i, i + BATCH))
}

async function storeBatch(db: Kysely<Database>, logins: readonly PrimaryLoginSeed[]): Promise<void> {
  const primaries = await db
    .selectFrom('broker_accounts')
    .select(['user_id', 'login_id'])
    .where('is_primary', '=', true)
    .where('user_id', 'in', logins.map((login) => login.userId))
    .execute()
  const loginOf = new Map(primaries.map((primary) => [primary.user_id, primary.login_id]))
  const links: { userId: string; loginId: string; accountId: string }[] = []
  const fresh: PrimaryLoginSeed[] = []
  for (const login of logins) {
    const loginId = loginOf.get(login.userId)
    if (loginId === undefined) throw new Error(`user ${login.userId} has no primary account`)
    if (loginId === null) {
      fresh.push(login)
      continue
    }
    await db.updateTable('broker_logins').set({ ...columnsOf(login), updated_at: sql<Date>`clock_timestamp()` }).where('id', '=', loginId).execute()
    links.push({ userId: login.userId, loginId, accountId: login.accountId })
  }
  if (fresh.length > 0) {
    const inserted = await db.insertInto('broker_logins').values(fresh.map((login) => ({ user_id: login.userId, ...columnsOf(login) }))).returning(['id', 'user_id']).execute()
    const accountOf = new Map(fresh.map((login) => [login.userId, login.accountId]))
    links.push(...inserted.map((row) => ({ userId: row.user_id, loginId: row.id, accountId: accountOf.get(row.user_id) ?? '' })))
  }
  const values = sql.join(links.map((link) => sql`(${link.userId}, ${link.loginId}::uuid, ${link.accountId})`))
  await sql`UPDATE broker_accounts a SET login_id = v.login_id, broker_account_ref = v.account_id, updated_at = clock_timestamp()
    FROM (VALUES ${values}) AS v(user_id, login_id, account_id) WHERE a.user_id = v.user_id AND a.is_primary`.execute(db)
}

/** One trader's broker credentials, stored as `storePrimaryLogins` stores them. */
export async function storePrimaryLogin(db: Kysely<Database>, login: PrimaryLoginSeed): Promise<void> {
  await storePrimaryLogins(db, [login])
}
