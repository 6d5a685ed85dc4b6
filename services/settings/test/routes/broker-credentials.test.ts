import t from 'tap'
import { randomBytes } from 'node:crypto'
import { CredentialsCipher, credentialsContext } from '@signals/secrets'
import { findPrimaryLogin, sql } from '@signals/db'
import { build } from '../helper.ts'

const SECRETS = {
  password: 'pw-Zq81-unique-password',
  cid: 'cid-7731-unique-client',
  sec: 'sec-5f0e9c-unique-client-secret',
}
const tradovate = {
  broker: 'tradovate',
  environment: 'live',
  accountId: 'TV-123456',
  username: 'margaret.h',
  password: SECRETS.password,
  appId: 'SignalsApp',
  appVersion: '1.0',
  cid: SECRETS.cid,
  sec: SECRETS.sec,
  deviceId: 'device-1',
}

t.test('broker credentials: PUT seals the secrets, GET and status show them masked, DELETE removes them; no secret in any response or log line', async (t) => {
  const { app, config, createUser, logLines } = await build(t, { captureLogs: true })
  const headers = await createUser('mia')
  const responses: string[] = []
  const call = async (method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, payload?: object) => {
    const response = await app.inject({ method, url, headers, payload })
    responses.push(response.body)
    return response
  }

  const empty = await call('GET', '/api/broker-credentials')
  t.same(empty.json(), { success: true, credentials: null })

  const saved = await call('PUT', '/api/broker-credentials', tradovate)
  t.equal(saved.statusCode, 200)
  t.match(saved.json(), {
    success: true,
    credentials: { broker: 'tradovate', environment: 'live', accountId: 'TV-123456', usernameMasked: 'm********h', updatedAt: String },
    feedCommand: null,
  })
  t.same(Object.keys(saved.json().credentials).sort(), ['accountId', 'broker', 'environment', 'updatedAt', 'usernameMasked'])

  const row = await findPrimaryLogin(app.db, 'mia')
  if (!row) throw new Error("mia's primary account has no login")
  t.equal(row.key_id, config.CREDENTIALS_KEY_ID)
  t.equal(row.secret_iv.length, 12)
  t.equal(row.secret_tag.length, 16)
  const stored = JSON.stringify({ ...row, secret_ciphertext: row.secret_ciphertext.toString('latin1') })
  for (const secret of [...Object.values(SECRETS), 'margaret.h']) t.notOk(stored.includes(secret), `row does not hold ${secret.slice(0, 6)}… in the clear`)
  const cipher = CredentialsCipher.fromConfig(config.CREDENTIALS_KEY_ID, config.CREDENTIALS_KEY, config.CREDENTIALS_PREVIOUS_KEYS)
  const sealed = { keyId: row.key_id, iv: row.secret_iv, tag: row.secret_tag, ciphertext: row.secret_ciphertext }
  const context = credentialsContext({ userId: 'mia', broker: 'tradovate', environment: 'live', accountId: 'TV-123456' })
  t.same(cipher.open(sealed, context), {
    username: 'margaret.h',
    password: SECRETS.password,
    appId: 'SignalsApp',
    appVersion: '1.0',
    cid: SECRETS.cid,
    sec: SECRETS.sec,
    deviceId: 'device-1',
  }, 'the connector opens it with the same cipher and the row as context')
  t.throws(() => cipher.open(sealed, credentialsContext({ userId: 'someone-else', broker: 'tradovate', environment: 'live', accountId: 'TV-123456' })), 'another user id does not open it')
  t.throws(() => cipher.open(sealed, credentialsContext({ userId: 'mia', broker: 'tradovate', environment: 'demo', accountId: 'TV-123456' })), 'another environment does not open it')
  const specRow = async () => (await sql<Record<string, unknown>>`SELECT * FROM broker_credentials WHERE user_id = 'mia'`.execute(app.db)).rows
  t.same(await specRow(), [row], "the spec's broker_credentials row is the primary's login (written by a trigger)")

  const shown = await call('GET', '/api/broker-credentials')
  t.same(shown.json().credentials, saved.json().credentials)
  await call('GET', '/api/live-trading-status')

  // A bad request carrying secrets must not echo them either.
  const bad = await call('PUT', '/api/broker-credentials', { ...tradovate, environment: 'prod' })
  t.equal(bad.statusCode, 400)

  const deleted = await call('DELETE', '/api/broker-credentials')
  t.same(deleted.json(), { success: true, deleted: true, feedCommand: null })
  t.same((await call('GET', '/api/broker-credentials')).json(), { success: true, credentials: null })
  t.same((await call('DELETE', '/api/broker-credentials')).json(), { success: true, deleted: false, feedCommand: null }, 'DELETE is idempotent')
  t.same(await specRow(), [], "and the spec's row goes with the login")
  t.equal((await app.db.selectFrom('broker_logins').select('id').execute()).length, 0, 'the login no other account used is removed')

  t.ok(logLines.length > 5, `log lines were captured (${logLines.length})`)
  for (const secret of Object.values(SECRETS)) {
    t.notOk(responses.some((body) => body.includes(secret)), `no response holds ${secret.slice(0, 6)}…`)
    t.notOk(logLines.some((line) => line.includes(secret)), `no log line holds ${secret.slice(0, 6)}…`)
  }
})

t.test('saving credentials while live trading is on restarts the feed; deleting them stops it; off does neither', async (t) => {
  const { app, createUser, feedMessages } = await build(t)
  const headers = await createUser('ned')
  const put = () => app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: tradovate })
  t.equal((await put()).json().feedCommand, null, 'live trading off: no command')
  t.same(await feedMessages(), [])

  await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } } })
  const restarted = await put()
  t.match(restarted.json().feedCommand, { action: 'restart', delivery: 'sent' })
  const removed = await app.inject({ method: 'DELETE', url: '/api/broker-credentials', headers })
  t.match(removed.json().feedCommand, { action: 'stop', delivery: 'sent' })
  t.same((await feedMessages()).map((m) => [m.subject, m.body.reason]), [
    ['feeds.start', 'live trading enabled'],
    ['feeds.restart', 'broker credentials changed'],
    ['feeds.stop', 'broker credentials removed'],
  ])
})

t.test('PUT /api/broker-credentials refuses bad input with a 400 naming the field', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('olga')
  const { appId: _appId, ...withoutAppId } = tradovate
  const { sec: _sec, ...withoutSec } = tradovate
  const { password: _password, ...withoutPassword } = tradovate
  const cases: [string, unknown, RegExp][] = [
    ['unknown broker', { ...tradovate, broker: 'ibkr' }, /^Invalid broker credentials: broker must be one of "paper", "tradovate"/],
    ['unknown environment', { ...tradovate, environment: 'prod' }, /environment must be one of "demo", "live"/],
    ['tradovate without appId', withoutAppId, /appId is required for broker tradovate/],
    ['tradovate without sec', withoutSec, /sec is required for broker tradovate/],
    ['no password', withoutPassword, /password is required/],
    ['empty account id', { ...tradovate, accountId: '' }, /accountId must not be empty/],
    ['account id too long', { ...tradovate, accountId: 'x'.repeat(256) }, /accountId must not have more than 255 characters/],
    ['unknown field', { ...tradovate, pin: '1234' }, /pin is not a known field/],
    ['not an object', ['tradovate'], /^Invalid broker credentials: body must be object/],
  ]
  for (const [name, payload, error] of cases) {
    const response = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: payload as object })
    t.equal(response.statusCode, 400, name)
    t.match(response.json(), { success: false, error }, `${name}: ${response.json().error}`)
  }
  const paper = await app.inject({
    method: 'PUT',
    url: '/api/broker-credentials',
    headers,
    payload: { broker: 'paper', environment: 'demo', accountId: 'P1', username: 'ab', password: 'x' },
  })
  t.equal(paper.statusCode, 200, 'the paper broker needs no API client')
  t.equal(paper.json().credentials.usernameMasked, '**')
  t.equal((await app.db.selectFrom('broker_logins').select('id').execute()).length, 1, 'the second save replaced the login in place')
})

t.test('credentials sealed under a previous key still show, and a re-save seals them under the current key', async (t) => {
  const oldKey = randomBytes(32).toString('base64')
  const newKey = randomBytes(32).toString('base64')
  const before = await build(t, { overrides: { CREDENTIALS_KEY_ID: 'old', CREDENTIALS_KEY: oldKey } })
  const headers = await before.createUser('pete')
  await before.app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: tradovate })
  await before.app.close()

  const after = await build(t, { overrides: { DATABASE_URL: before.database.url, CREDENTIALS_KEY_ID: 'new', CREDENTIALS_KEY: newKey, CREDENTIALS_PREVIOUS_KEYS: `old:${oldKey}` } })
  const shown = (await after.app.inject({ method: 'GET', url: '/api/broker-credentials', headers: after.headersFor('pete') })).json()
  t.equal(shown.credentials.usernameMasked, 'm********h', 'opened with the previous key')
  await after.app.inject({ method: 'PUT', url: '/api/broker-credentials', headers: after.headersFor('pete'), payload: tradovate })
  t.equal((await findPrimaryLogin(after.app.db, 'pete'))?.key_id, 'new')

  const lost = await build(t, { overrides: { DATABASE_URL: before.database.url, CREDENTIALS_KEY_ID: 'other', CREDENTIALS_KEY: randomBytes(32).toString('base64') } })
  const blind = (await lost.app.inject({ method: 'GET', url: '/api/broker-credentials', headers: lost.headersFor('pete') })).json()
  t.match(blind.credentials, { accountId: 'TV-123456', usernameMasked: null }, 'without the key the clear fields still show, the name does not')
})

t.test('credential saves racing live-trading switches keep the feed commands consistent with the stored state', async (t) => {
  const { app, createUser, feedMessages } = await build(t)
  const headers = await createUser('quentin')
  const switches = [true, false, true, false, true, true, false, true]
  await Promise.all([
    ...switches.map((enabled) =>
      app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'live_trading', settingValue: { enabled, autoPlaceOrders: true } } }),
    ),
    ...Array.from({ length: 6 }, () => app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: tradovate })),
  ])
  let feedOn = false
  for (const { subject } of await feedMessages()) {
    if (subject === 'feeds.start') {
      t.notOk(feedOn, 'start only when stopped')
      feedOn = true
    } else if (subject === 'feeds.stop') {
      t.ok(feedOn, 'stop only when started')
      feedOn = false
    } else {
      t.ok(feedOn, 'restart only while live trading is on')
    }
  }
  const stored = (await app.inject({ method: 'GET', url: '/api/trading-settings', headers })).json().settings.live_trading.value.enabled
  t.equal(feedOn, stored, 'replaying the commands in order ends in the stored state')
})
