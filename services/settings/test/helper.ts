import { Writable } from 'node:stream'
import type { Test } from 'tap'
import { loadConfig } from '@signals/config'
import { CREDENTIALS_TEST_SUBJECT, Streams, type CredentialsTestReply, type CredentialsTestRequest } from '@signals/contracts'
import { signIdentitiesOnInject, unsignedIdentity, createTestDatabase, testNamespace, deleteNamespaceStreams } from '@signals/test-support'
import { buildApp } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'

export interface BuildOptions {
  overrides?: Record<string, string>
  /** Capture every log line (at LOG_LEVEL, default info when capturing). */
  captureLogs?: boolean
}

/** Builds the settings app against real services (its own database and bus namespace) and tears it down. */
type App = Awaited<ReturnType<typeof buildApp>>

export async function build(t: Test, options: BuildOptions = {}) {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const config: Config = loadConfig(ConfigSchema, {
    ...process.env,
    LOG_LEVEL: options.captureLogs ? 'info' : 'silent',
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    BUS_NAMESPACE: namespace,
    // The relay runs in tests too, but not so often that it races the assertions about the request path.
    FEED_RELAY_INTERVAL_MS: '60000',
    ...options.overrides,
  })
  const logLines: string[] = []
  const loggerStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      callback()
    },
  })
  const app = await buildApp(config, options.captureLogs ? { loggerStream } : {})
  signIdentitiesOnInject(app, config.INTERNAL_AUTH_SECRET, 'settings')
  t.teardown(() => app.close())
  await app.ready()

  const headersFor = (userId: string) => ({
    'x-signals-identity': unsignedIdentity({ userId, email: `${userId}@example.com`, role: 'trader', approved: true }),
  })

  /** Inserts the users row the auth service would have created at sign-in. */
  const createUser = async (userId: string) => {
    await app.db.insertInto('users').values({ user_id: userId, email: `${userId}@example.com`, approved: true }).execute()
    return headersFor(userId)
  }

  /** Every message on the namespace's FEEDS stream, oldest first. */
  const feedMessages = async () => {
    const stream = app.bus.stream(Streams.feeds.name)
    const info = await app.bus.jsm.streams.info(stream)
    const messages: { subject: string; messageId: string | null; body: Record<string, unknown> }[] = []
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const message = await app.bus.jsm.streams.getMessage(stream, { seq }).catch(() => null)
      if (!message) continue
      messages.push({
        subject: app.bus.ns.strip(message.subject),
        messageId: message.header?.get('Nats-Msg-Id') || null,
        body: message.json<Record<string, unknown>>(),
      })
    }
    return messages
  }

  return { app, config, database, namespace, headersFor, createUser, feedMessages, logLines }
}

const ACCEPTED: CredentialsTestReply = { version: 1, ok: true, kind: null, detail: 'The broker accepted the login.' }

/**
 * Stands in for the broker connectors' login test (core request `connector.credentials-test`, on the real
 * bus): answers each request with `answer(request)`, by default the broker's acceptance. The connector's own
 * side, against the paper broker, is tested in services/broker-connector. Returns the requests seen.
 */
export function answerLoginTests(t: Test, app: App, answer: (request: CredentialsTestRequest) => CredentialsTestReply = () => ACCEPTED): CredentialsTestRequest[] {
  const seen: CredentialsTestRequest[] = []
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  const responder = app.bus.nc.subscribe(app.bus.subject(CREDENTIALS_TEST_SUBJECT), {
    queue: 'credentials-test',
    callback: (_error, message) => {
      const request = JSON.parse(decoder.decode(message.data)) as CredentialsTestRequest
      seen.push(request)
      message.respond(encoder.encode(JSON.stringify(answer(request))))
    },
  })
  t.teardown(() => responder.unsubscribe())
  return seen
}

/** Paper credentials for broker account PA-1, as a trader saves them (`PUT /api/broker-credentials`). */
export const PAPER_LOGIN = { broker: 'paper', environment: 'demo', accountId: 'PA-1', username: 'eval.trader', password: 'pw-unique-8812' }

/**
 * Trader `ada` with the settings app: credentials saved (the primary on PA-1) and an additional account on PA-2
 * under the same login; each step's answer asserted.
 */
export async function traderSharingLogin(t: Test) {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('ada')
  t.equal((await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: PAPER_LOGIN })).statusCode, 200)
  const primary = await app.db.selectFrom('broker_accounts').select(['id', 'login_id']).where('user_id', '=', 'ada').where('is_primary', '=', true).executeTakeFirstOrThrow()
  const extra = await app.inject({ method: 'POST', url: '/api/accounts', headers, payload: { name: 'Eval 2', brokerAccountId: 'PA-2', loginId: primary.login_id } })
  t.equal(extra.statusCode, 200, extra.body)
  const additional = await app.db.selectFrom('broker_accounts').select(['id', 'login_id']).where('user_id', '=', 'ada').where('is_primary', '=', false).executeTakeFirstOrThrow()
  return { app, headers, primary, additional }
}
