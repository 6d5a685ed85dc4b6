// Benchmark users `<prefix><i>`, approved, each with sealed paper credentials for the broker account
// `trader-<i>` (paper-broker-process.ts) and a live-trading setting (on for the first `live` users).
import { sql, type Database, type Kysely } from '@signals/db'
import { CredentialsCipher, sealCredentials } from '@signals/secrets'
import { storePrimaryLogins } from '@signals/test-support'
import { PAPER_PASSWORD, type PaperBrokerKind } from './paper-broker-process.ts'

export interface PaperUsersOptions {
  count: number
  prefix: string
  /** Users (from index 0) whose live trading is on; the others have it off. */
  live: number
  /** Auto-place entries (the entry flow's setting). */
  autoPlace: boolean
  credentials: { keyId: string; key: string; previousKeys: string }
  /** The broker their credentials are for (default the Tradovate paper broker). */
  broker?: PaperBrokerKind
}

/** The venue and secret of login `trader-<i>` at this broker. */
function venueOf(broker: PaperBrokerKind, i: number) {
  return broker === 'projectx'
    ? { broker: 'projectx' as const, accountId: `PAPERX${7000 + i}`, secret: { username: `trader-${i}`, apiKey: PAPER_PASSWORD } }
    : { broker: 'paper' as const, accountId: `DEMO${9000 + i}`, secret: { username: `trader-${i}`, password: PAPER_PASSWORD, appId: 'bench', appVersion: '1', cid: 1, sec: 'bench', deviceId: null } }
}

export async function seedPaperUsers(db: Kysely<Database>, options: PaperUsersOptions): Promise<string[]> {
  const { count, prefix } = options
  await sql`INSERT INTO users (user_id, email, approved)
    SELECT ${prefix} || g, ${prefix} || g || '@example.com', true FROM generate_series(0, ${count - 1}::int) g`.execute(db)
  // The spec's live_trading setting: each primary account's switches (made with its user).
  await sql`UPDATE broker_accounts a SET live_trading = g < ${options.live}::int, auto_place = ${options.autoPlace}::boolean, switches_updated_at = now()
    FROM generate_series(0, ${count - 1}::int) g WHERE a.is_primary AND a.user_id = ${prefix} || g`.execute(db)
  const cipher = CredentialsCipher.fromConfig(options.credentials.keyId, options.credentials.key, options.credentials.previousKeys)
  const users = Array.from({ length: count }, (_, i) => `${prefix}${i}`)
  // Sealed as the settings service seals them: bound to the row's user, broker, environment and account.
  const logins = users.map((userId, i) => {
    const venue = venueOf(options.broker ?? 'tradovate', i)
    const owner = { userId, broker: venue.broker, environment: 'demo', accountId: venue.accountId } as const
    return { ...owner, sealed: sealCredentials(cipher, owner, venue.secret) }
  })
  // The trader's credentials: each primary account's login.
  await storePrimaryLogins(db, logins)
  return users
}
