import { findPrimaryLogin, type Database, type Kysely } from '@signals/db'
import { openedCredentialsOf, type BrokerEnvironment, type BrokerName } from '@signals/contracts'
import { openCredentialsRow, type CredentialsCipher, type SealedCredentialsRow } from '@signals/secrets'
import type { BrokerEndpoints, BrokerEndpointsTable, BrokerLogin, BrokerVenue } from './broker/broker-adapter.ts'
import { FeedError } from './feed-error.ts'

/** What a session logs in with, where, and the venue its broker ids belong to. */
export interface FeedLogin {
  login: BrokerLogin
  endpoints: BrokerEndpoints
  venue: BrokerVenue
}

/**
 * The user's stored credentials (their primary account's login) opened into a login of their broker, checked
 * against that broker's credentials schema (the feed and the credentials test both log in with it); null when
 * none are stored.
 * Throws `FeedError` when they cannot be opened or do not fit the schema.
 */
export async function feedLoginOf(db: Kysely<Database>, cipher: CredentialsCipher, endpoints: BrokerEndpointsTable, userId: string): Promise<FeedLogin | null> {
  const row = await findPrimaryLogin(db, userId)
  return row ? loginOfRow(cipher, endpoints, row) : null
}

/** A sealed credentials row (stored, or sealed for storing) opened into a login of its broker; throws `FeedError`. */
export function loginOfRow(cipher: CredentialsCipher, endpoints: BrokerEndpointsTable, row: SealedCredentialsRow & { broker: BrokerName; environment: BrokerEnvironment }): FeedLogin {
  let secret: Record<string, unknown>
  try {
    secret = openCredentialsRow(cipher, row)
  } catch {
    throw new FeedError('broker credentials could not be opened (key not configured or data damaged)')
  }
  const opened = openedCredentialsOf(row.broker, secret)
  if (!opened.ok) throw new FeedError(`broker credentials cannot be used: ${opened.problem}`)
  // The broker named beside the fields it was checked against: one member of the union.
  const login = { broker: row.broker, account: row.account_id, ...opened.credentials } as BrokerLogin
  return { login, endpoints: endpoints[row.broker][row.environment], venue: { broker: row.broker, environment: row.environment } }
}
