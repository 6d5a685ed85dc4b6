import t from 'tap'
import { startPrivateNats, testNamespace } from '@signals/test-support'
import { Streams, Subjects } from '@signals/contracts'
import { connectBus, natsServers, NatsCredentialsError } from '../src/index.ts'

// Issue 21 item 7: NATS users as an option. The server's users are given as the Helm chart gives them:
// the password read from the server's environment ($NAME), never written in its configuration.
const PASSWORD = 'nats-pass-w0rd/with:odd@chars'
const USERS_CONFIG = `authorization { users: [ { user: signals, password: $SIGNALS_NATS_PASSWORD } ] }`

const refusal = async (work: () => Promise<unknown>) => {
  try {
    await work()
  } catch (error) {
    return error as Error
  }
  return null
}

t.test('natsServers: credentials from the URL or the variables, servers without them', async (t) => {
  const encoded = encodeURIComponent(PASSWORD)
  t.same(natsServers(`nats://signals:${encoded}@a:4222, nats://signals:${encoded}@b:4222`), {
    servers: ['nats://a:4222', 'nats://b:4222'],
    credentials: { user: 'signals', pass: PASSWORD },
  }, 'user and password, percent-decoded, once for every server')
  t.same(natsServers('nats://s3cret-token@a:4222'), { servers: ['nats://a:4222'], credentials: { token: 's3cret-token' } }, 'a user part alone is a token')
  t.same(natsServers('nats://a:4222,nats://b:4222', { user: 'signals', password: 'p' }), {
    servers: ['nats://a:4222', 'nats://b:4222'],
    credentials: { user: 'signals', pass: 'p' },
  })
  t.same(natsServers('nats://a:4222', { token: 'tok' }).credentials, { token: 'tok' })
  t.same(natsServers('nats://a:4222', {}), { servers: ['nats://a:4222'] }, 'none at all')

  const refused: [string, object, RegExp][] = [
    ['nats://u:one@a:4222,nats://u:two@b:4222', {}, /different credentials \(server 2\)/],
    ['nats://u:one@a:4222', { user: 'u', password: 'one' }, /give them once/],
    ['nats://a:4222', { user: 'u' }, /go together/],
    ['nats://a:4222', { token: 'tok', user: 'u', password: 'p' }, /not both/],
  ]
  for (const [url, settings, message] of refused) {
    const error = await refusal(async () => natsServers(url, settings))
    t.ok(error instanceof NatsCredentialsError, `${message} is refused`)
    t.match(error?.message, message)
    t.notMatch(error?.message, /one|two|tok\b|\bp\b/, 'no secret in the message')
  }
})

t.test('a NATS server with users: the bus logs in from the URL or from the variables, and JetStream works', async (t) => {
  const server = await startPrivateNats({ config: USERS_CONFIG, env: { SIGNALS_NATS_PASSWORD: PASSWORD } })
  t.teardown(() => server.destroy())
  const withUrl = `nats://signals:${encodeURIComponent(PASSWORD)}@127.0.0.1:${server.port}`
  const namespace = testNamespace()
  // The streams were created by the first login and the private server goes with the test: no clean-up.

  for (const [how, options] of [
    ['credentials in NATS_URL', { url: withUrl }],
    ['NATS_USER and NATS_PASSWORD', { url: server.url, credentials: { user: 'signals', password: PASSWORD } }],
  ] as const) {
    const bus = await connectBus({ ...options, name: 'credentials-test', namespace })
    const result = await bus.publishRaw(bus.subject(Subjects.alertTest), new TextEncoder().encode('{}'), { messageId: how })
    t.equal(result.stream, bus.stream(Streams.alerts.name), `${how}: JetStream stored a message`)
    t.ok(await bus.ping(), `${how}: connected`)
    t.equal((await bus.jsm.streams.info(bus.stream(Streams.alerts.name))).state.messages, how === 'credentials in NATS_URL' ? 1 : 2)
    await bus.close()
  }

  const anonymous = await refusal(() => connectBus({ url: server.url, name: 'credentials-test', namespace, connectTimeoutMs: 2_000 }))
  t.ok(anonymous, 'no credentials: refused')
  const wrong = await refusal(() => connectBus({ url: server.url, credentials: { user: 'signals', password: 'not-the-password' }, name: 'credentials-test', namespace, connectTimeoutMs: 2_000 }))
  t.ok(wrong, 'a wrong password: refused')
  t.notMatch(String(wrong?.message), /not-the-password/, 'the refusal does not repeat the password')
})

t.test('a NATS server with a token', async (t) => {
  const server = await startPrivateNats({ config: 'authorization { token: $SIGNALS_NATS_TOKEN }', env: { SIGNALS_NATS_TOKEN: 'a-long-nats-token' } })
  t.teardown(() => server.destroy())
  const bus = await connectBus({ url: server.url, credentials: { token: 'a-long-nats-token' }, name: 'credentials-test', namespace: testNamespace() })
  t.ok(await bus.ping(), 'NATS_TOKEN logs in')
  await bus.close()
  const inUrl = await connectBus({ url: `nats://a-long-nats-token@127.0.0.1:${server.port}`, name: 'credentials-test', namespace: testNamespace() })
  t.ok(await inUrl.ping(), 'a token in the URL logs in')
  await inUrl.close()
  t.ok(await refusal(() => connectBus({ url: server.url, name: 'credentials-test', connectTimeoutMs: 2_000 })), 'no token: refused')
})
