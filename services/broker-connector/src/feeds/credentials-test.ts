import {
  CREDENTIALS_TEST_SUBJECT,
  CredentialsTestReplyV1,
  CredentialsTestRequestV1,
  contract,
  type CredentialsTestReply,
  type CredentialsTestRequest,
  type SealedLogin,
} from '@signals/contracts'
import { serveByContract, type Bus } from '@signals/bus'
import type { Database, Kysely } from '@signals/db'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { CredentialsCipher } from '@signals/secrets'
import { BrokerError, type BrokerEndpointsTable } from './broker/broker-adapter.ts'
import type { BrokerAdapters } from './broker/adapters.ts'
import type { Logger } from '../shared/logger.ts'
import { FeedError } from './feed-error.ts'
import { feedLoginOf, loginOfRow } from './feed-login.ts'

const requestContract = contract(CredentialsTestRequestV1)
const replyContract = contract(CredentialsTestReplyV1)

export interface CredentialsTestDeps {
  db: Kysely<Database>
  cipher: CredentialsCipher
  /** Each login opens with its own broker's adapter. */
  adapters: BrokerAdapters
  endpoints: BrokerEndpointsTable
  timeoutMs?: number
}

const failed = (kind: string, detail: string): CredentialsTestReply => ({ version: 1, ok: false, kind, detail: detail.slice(0, 1000) })

/** Why the broker would not open a session, in its words, as the trader reads it. */
function refusal(error: BrokerError): CredentialsTestReply {
  if (error.kind === 'credentials_refused') return failed(error.kind, `The broker refused the login: ${error.message}`)
  if (error.kind === 'account_not_found') return failed(error.kind, `The broker accepted the login but not the account: ${error.message}`)
  return failed(error.kind, `The broker could not be reached or did not let the login through now: ${error.message}`)
}

/** A login sealed for storing (issue 22: `POST /api/accounts`), as the row it would be stored as: bound to the asking user. */
function sealedRowOf(userId: string, login: SealedLogin) {
  return {
    user_id: userId, broker: login.broker, environment: login.environment, account_id: login.accountId, key_id: login.keyId,
    secret_iv: Buffer.from(login.iv, 'base64'), secret_tag: Buffer.from(login.tag, 'base64'), secret_ciphertext: Buffer.from(login.ciphertext, 'base64'),
  }
}

/**
 * Tries the user's stored broker login (or the sealed login the request carries, not stored yet) as the feed would (access token, real-time socket, account), then
 * closes the session at once. Nothing is traded and no feed state changes.
 */
async function testCredentials(deps: CredentialsTestDeps, { userId, login: sealed }: CredentialsTestRequest): Promise<CredentialsTestReply> {
  let login
  try {
    login = sealed ? loginOfRow(deps.cipher, deps.endpoints, sealedRowOf(userId, sealed)) : await feedLoginOf(deps.db, deps.cipher, deps.endpoints, userId)
  } catch (error) {
    if (error instanceof FeedError) return failed('unreadable', `The ${sealed ? 'given' : 'stored'} credentials could not be used: ${error.message}`)
    throw error
  }
  if (!login) return failed('no_credentials', 'No broker credentials are stored.')
  try {
    const session = await deps.adapters.openSession(login.endpoints, login.login, { timeoutMs: deps.timeoutMs, onEvent: () => undefined, onLost: () => undefined })
    const account = session.snapshot.account.name
    session.close()
    return { version: 1, ok: true, kind: null, detail: `The broker accepted the login: account ${account}.` }
  } catch (error) {
    if (error instanceof BrokerError) return refusal(error)
    throw error
  }
}

/** Answers `connector.credentials-test` (one instance of the queue group answers each request). */
function serveCredentialsTests(bus: Bus, deps: CredentialsTestDeps, logger: Logger): { unsubscribe(): void } {
  return serveByContract(
    bus,
    CREDENTIALS_TEST_SUBJECT,
    { request: requestContract, reply: replyContract },
    (request) => testCredentials(deps, request),
    logger,
    { answerer: 'credentials test', invalidRequest: 'credentials test request is not CredentialsTestRequestV1', failed: 'credentials test not carried out' },
    'credentials-test',
  )
}

/** The credentials test answerer of an instance with feeds (registered beside the feeds plugin, with its keys and broker). */
export const credentialsTestPlugin = fp(
  async (app: FastifyInstance, options: Omit<CredentialsTestDeps, 'db' | 'cipher'> & { keys: { keyId: string; key: string; previousKeys: string } }) => {
    const cipher = CredentialsCipher.fromConfig(options.keys.keyId, options.keys.key, options.keys.previousKeys)
    const answerer = serveCredentialsTests(app.bus, { ...options, db: app.db, cipher }, app.log)
    app.addHook('onClose', async () => answerer.unsubscribe())
  },
  { name: 'credentials-test', dependencies: ['db', 'bus'] },
)
