import type { Database, Kysely } from '@signals/db'
import { openCredentialsRow, type CredentialsCipher } from '@signals/secrets'
import type { BrokerEndpoints, BrokerLogin, BrokerVenue } from '../broker/broker-adapter.ts'
import { FeedError } from './feed-error.ts'
import { findBrokerCredentials } from '../repositories/feeds.ts'

/** What a session logs in with, where, and the venue its broker ids belong to. */
export interface FeedLogin {
  login: BrokerLogin
  endpoints: BrokerEndpoints
  venue: BrokerVenue
}

/**
 * The user's stored credentials opened into a broker login (the feed and the credentials test both log in
 * with it); null when none are stored. Throws `FeedError` when they cannot be opened.
 */
export async function feedLoginOf(
  db: Kysely<Database>,
  cipher: CredentialsCipher,
  endpoints: (broker: 'paper' | 'tradovate', environment: 'demo' | 'live') => BrokerEndpoints,
  userId: string,
): Promise<FeedLogin | null> {
  const row = await findBrokerCredentials(db, userId)
  if (!row) return null
  let secret: Record<string, unknown>
  try {
    secret = openCredentialsRow(cipher, row)
  } catch {
    throw new FeedError('broker credentials could not be opened (key not configured or data damaged)')
  }
  const text = (key: string) => (typeof secret[key] === 'string' ? (secret[key] as string) : null)
  const username = text('username')
  const password = text('password')
  if (!username || !password) throw new FeedError('broker credentials lack a username or password')
  const cid = secret.cid
  return {
    login: {
      account: row.account_id,
      username,
      password,
      appId: text('appId'),
      appVersion: text('appVersion'),
      cid: typeof cid === 'string' || typeof cid === 'number' ? cid : null,
      sec: text('sec'),
      deviceId: text('deviceId'),
    },
    endpoints: endpoints(row.broker, row.environment),
    venue: { broker: row.broker, environment: row.environment },
  }
}
