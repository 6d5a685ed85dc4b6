import type { Database, FeedCommandRow, Kysely, Transaction } from '@signals/db'
import { checkBrokerCredentials, sealedCredentialsOf, type BrokerName } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import { sealCredentials, type CredentialsCipher, type SealedSecret } from '@signals/secrets'
import { findLogin, findPrimaryAccount, insertAccount, insertLogin, isLinked, updateAccount } from '../repositories/broker-accounts.ts'
import { savePrimaryLogin } from '../repositories/primary-login.ts'
import { readPrimarySwitches } from '../repositories/primary-switches.ts'
import { enqueueFeedCommand } from '../repositories/feed-commands.ts'
import type { NewAccountBody } from '../schemas/accounts.ts'
import { accountAlreadyLinked } from './account-refusals.ts'

/** A new login, checked against its broker's schema and sealed for the account it names, not stored yet. */
export interface SealedLogin {
  broker: BrokerName
  environment: 'demo' | 'live'
  sealed: SealedSecret
}

/** The new login's credentials checked against its broker's own schema and sealed for the account they name. */
export function sealNewLogin(cipher: CredentialsCipher, userId: string, body: NewAccountBody): SealedLogin | null {
  if ((body.loginId === undefined) === (body.login === undefined)) {
    throw badRequest('Invalid account: give exactly one of loginId (one of your logins) and login (a new one)')
  }
  if (!body.login) return null
  const { broker, environment, ...fields } = body.login
  const checked = checkBrokerCredentials(broker, fields)
  if (!checked.ok) throw badRequest(`Invalid account: ${checked.problem}`)
  const sealed = sealCredentials(cipher, { userId, broker, environment, accountId: body.brokerAccountId }, { ...sealedCredentialsOf(broker, checked.credentials) })
  return { broker, environment, sealed }
}

/**
 * Adds an account. A trader whose primary account has no broker login yet links the primary with it (saved
 * as `PUT /api/broker-credentials` saves the trader's credentials: the primary's login); otherwise
 * an additional account, switched off, under the named login or a new one (`login`: `sealNewLogin`'s, already
 * tried at the broker). Answers the account's id and the primary's feed command (restart when its live
 * trading is on), if any.
 */
export async function addAccount(db: Kysely<Database>, userId: string, body: NewAccountBody, login: SealedLogin | null): Promise<{ id: string; command: FeedCommandRow | null }> {
  const name = body.name.trim()
  return db.transaction().execute(async (trx) => {
    const primary = await findPrimaryAccount(trx, userId)
    if (!primary) throw notFound('User not found')
    if (login && primary.login_id === null) return linkPrimary(trx, { userId, primaryId: primary.id, name, brokerAccountId: body.brokerAccountId }, login)
    const loginId = login
      ? await insertLogin(trx, { userId, broker: login.broker, environment: login.environment, boundAccountRef: body.brokerAccountId }, login.sealed)
      : await existingLogin(trx, userId, body.loginId ?? '', body.brokerAccountId)
    const id = await insertAccount(trx, { userId, loginId, brokerAccountRef: body.brokerAccountId, name })
    return { id, command: null }
  })
}

/** One of the trader's logins, locked so two adds of one broker account under it are decided one after the other. */
async function existingLogin(trx: Transaction<Database>, userId: string, loginId: string, brokerAccountId: string): Promise<string> {
  const login = await findLogin(trx, userId, loginId, true)
  if (!login) throw notFound('Login not found')
  if (await isLinked(trx, login.id, brokerAccountId)) throw accountAlreadyLinked()
  return login.id
}

async function linkPrimary(
  trx: Transaction<Database>,
  link: { userId: string; primaryId: string; name: string; brokerAccountId: string },
  login: SealedLogin,
): Promise<{ id: string; command: FeedCommandRow | null }> {
  // The primary has no login yet: a new one is made, so no account under it can be on that broker account.
  if ((await savePrimaryLogin(trx, link.userId, { broker: login.broker, environment: login.environment, accountId: link.brokerAccountId }, login.sealed)) === 'account_taken') throw accountAlreadyLinked()
  await updateAccount(trx, link.primaryId, { name: link.name })
  const live = await readPrimarySwitches(trx, link.userId, true)
  const command = live.enabled ? await enqueueFeedCommand(trx, { userId: link.userId, action: 'restart', reason: 'broker credentials changed' }) : null
  return { id: link.primaryId, command }
}
