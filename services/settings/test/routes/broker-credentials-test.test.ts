import t from 'tap'
import { CREDENTIALS_TEST_SUBJECT } from '@signals/contracts'
import { build } from '../helper.ts'

const credentials = { broker: 'paper', environment: 'demo', accountId: 'PAPER-42', username: 'trader.one', password: 'hunter2-password' }
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The settings side of the login test (issue 25, item 4): the request goes over core NATS with the user id
 * only, and the connector's answer comes back as it said it. A local responder stands in for the connector
 * here (the connector's side, against the paper broker, is tested in services/broker-connector and in the
 * browser test); no connector at all is said so, never a 5xx.
 */
t.test('POST /api/broker-credentials/test and the try on save: the connector\'s words, or that none answered', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('tester')

  const none = await app.inject({ method: 'POST', url: '/api/broker-credentials/test', headers })
  t.equal(none.statusCode, 200)
  t.match(none.json(), { success: true, test: { ok: false, kind: 'no_answer', detail: /no broker connector answered/, testedAt: String } })

  const asked: unknown[] = []
  const responder = app.bus.nc.subscribe(app.bus.subject(CREDENTIALS_TEST_SUBJECT), {
    queue: 'credentials-test',
    callback: (_error, message) => {
      asked.push(JSON.parse(decoder.decode(message.data)))
      message.respond(encoder.encode(JSON.stringify({ version: 1, ok: false, kind: 'credentials_refused', detail: 'The broker refused the login: Incorrect username or password' })))
    },
  })
  t.teardown(() => responder.unsubscribe())

  const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: credentials })
  t.equal(saved.statusCode, 200)
  t.match(saved.json(), { success: true, credentials: { accountId: 'PAPER-42' }, test: { ok: false, kind: 'credentials_refused', detail: 'The broker refused the login: Incorrect username or password' } }, 'saved, and the refusal told at once')
  t.notMatch(saved.body, /hunter2/, 'no secret in the answer')

  const tested = await app.inject({ method: 'POST', url: '/api/broker-credentials/test', headers })
  t.match(tested.json().test, { ok: false, kind: 'credentials_refused' })
  t.same(asked, [{ version: 1, userId: 'tester' }, { version: 1, userId: 'tester' }], 'only the user id crosses the bus, never a secret')

  t.equal((await app.inject({ method: 'POST', url: '/api/broker-credentials/test' })).statusCode, 401)
})
