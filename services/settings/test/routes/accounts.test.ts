import t from 'tap'
import { openBucket } from '@signals/bus'
import { Buckets, feedStatusKey } from '@signals/contracts'
import { DEFAULT_RISK_ENGINE_CONFIG } from '@signals/risk-engine'
import { openCredentialsRow } from '@signals/secrets'
import { findPrimaryLogin, sql } from '@signals/db'
import { credentialsCipherFrom } from '../../src/config.ts'
import { answerLoginTests, build } from '../helper.ts'

// Issue 22 items 1 and 2 (docs/decisions/accounts.md): several accounts per trader; the spec's single-account
// routes address the primary, whose login is the trader's credentials (the connector's feed login).
const paperLogin = { broker: 'paper', environment: 'demo', username: 'eval.trader', password: 'pw-unique-8812' }

t.test('the first account links the primary (the connector sees it as credentials); more go under a login, switched off', async (t) => {
  const { app, config, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('ada')
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => app.inject({ method, url, headers, payload })

  const before = (await call('GET', '/api/accounts')).json()
  t.match(before.accounts, [{ name: 'Primary', isPrimary: true, loginId: null, broker: null, brokerAccountId: null, liveTrading: false, liveTradingAvailable: true }])
  t.equal(before.accounts.length, 1, 'a new trader has exactly their primary account')

  const first = await call('POST', '/api/accounts', { name: 'Apex 50K', brokerAccountId: 'PA-1', login: paperLogin })
  t.equal(first.statusCode, 200, first.body)
  const primary = first.json().account
  t.match(primary, { id: before.accounts[0].id, name: 'Apex 50K', isPrimary: true, broker: 'paper', environment: 'demo', brokerAccountId: 'PA-1' })
  t.notMatch(first.body, /pw-unique-8812/, 'no secret in the answer')
  const credentials = (await call('GET', '/api/broker-credentials')).json().credentials
  t.match(credentials, { broker: 'paper', environment: 'demo', accountId: 'PA-1', usernameMasked: 'e********r' }, "the spec's route shows the primary's credentials")
  const row = await findPrimaryLogin(app.db, 'ada')
  if (!row) throw new Error("ada's primary account has no login")
  t.match(openCredentialsRow(credentialsCipherFrom(config), row), { username: 'eval.trader', password: 'pw-unique-8812' }, 'the connector opens them as today')

  const second = await call('POST', '/api/accounts', { name: 'Apex 50K #2', brokerAccountId: 'PA-2', loginId: primary.loginId })
  t.equal(second.statusCode, 200, second.body)
  t.match(second.json().account, { isPrimary: false, loginId: primary.loginId, brokerAccountId: 'PA-2', liveTrading: false, autoPlaceOrders: false, liveTradingAvailable: false })
  const again = await call('POST', '/api/accounts', { name: 'Twice', brokerAccountId: 'PA-2', loginId: primary.loginId })
  t.equal(again.statusCode, 409)
  t.match(again.json(), { success: false, code: 'account_exists' })
  const own = await call('POST', '/api/accounts', { name: 'Other firm', brokerAccountId: 'X-9', login: { ...paperLogin, username: 'second.login' } })
  t.equal(own.statusCode, 200)
  t.not(own.json().account.loginId, primary.loginId, 'a new login of its own')

  const listed = (await call('GET', '/api/accounts')).json().accounts
  t.same(listed.map((each: { brokerAccountId: string }) => each.brokerAccountId), ['PA-1', 'PA-2', 'X-9'], 'the primary first, then in the order added')
  t.match(await findPrimaryLogin(app.db, 'ada'), { account_id: 'PA-1', key_id: row.key_id, updated_at: row.updated_at }, "additional accounts never touch the trader's credentials")
  t.same((await sql<{ user_id: string; account_id: string }>`SELECT user_id, account_id FROM broker_credentials`.execute(app.db)).rows, [{ user_id: 'ada', account_id: 'PA-1' }], "nor the spec's per-user row")

  const cases: [string, object, number, RegExp][] = [
    ['neither login nor loginId', { name: 'A', brokerAccountId: 'B' }, 400, /exactly one of loginId/],
    ['both', { name: 'A', brokerAccountId: 'B', loginId: primary.loginId, login: paperLogin }, 400, /exactly one of loginId/],
    ['a login missing its password', { name: 'A', brokerAccountId: 'B', login: { broker: 'paper', environment: 'demo', username: 'u' } }, 400, /^Invalid account/],
    ['an unknown login', { name: 'A', brokerAccountId: 'B', loginId: '5b1f0b8e-58a4-4c1e-9c57-1b2d3e4f5a6b' }, 404, /Login not found/],
    ['a blank name', { name: '  ', brokerAccountId: 'B', loginId: primary.loginId }, 400, /^Invalid account/],
  ]
  for (const [name, payload, status, error] of cases) {
    const response = await call('POST', '/api/accounts', payload)
    t.equal(response.statusCode, status, name)
    t.match(response.json(), { success: false, error }, `${name}: ${response.json().error}`)
  }
})

t.test("switches: the primary's are the spec's live_trading setting; an additional account cannot go live yet", async (t) => {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('bo')
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const primary = (await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })).json().account
  const extra = (await call('POST', '/api/accounts', { name: 'Eval', brokerAccountId: 'P-2', loginId: primary.loginId })).json().account

  const live = await call('PATCH', `/api/accounts/${primary.id}`, { liveTrading: true })
  t.equal(live.statusCode, 200, live.body)
  t.match(live.json(), { account: { liveTrading: true, autoPlaceOrders: false }, feedCommand: { action: 'start' } })
  const settings = (await call('GET', '/api/trading-settings')).json().settings
  t.same(settings.live_trading.value, { enabled: true, autoPlaceOrders: false }, 'the connector reads the switch where it always did')

  await call('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: false, autoPlaceOrders: true } })
  const mirrored = (await call('GET', '/api/accounts')).json().accounts[0]
  t.match(mirrored, { id: primary.id, liveTrading: false, autoPlaceOrders: true }, "the spec's route changes the primary")
  const kept = await call('PATCH', `/api/accounts/${primary.id}`, { name: 'Main account' })
  t.match(kept.json(), { account: { name: 'Main account', liveTrading: false, autoPlaceOrders: true }, feedCommand: null }, 'a rename leaves the switches')

  const refused = await call('PATCH', `/api/accounts/${extra.id}`, { liveTrading: true, autoPlaceOrders: true })
  t.equal(refused.statusCode, 409)
  t.match(refused.json(), { success: false, code: 'account_trading_not_available', error: /additional accounts is not available yet/ })
  t.match((await call('GET', '/api/accounts')).json().accounts[1], { id: extra.id, liveTrading: false, autoPlaceOrders: false }, 'nothing of a refused change is saved')
  const autoPlace = await call('PATCH', `/api/accounts/${extra.id}`, { autoPlaceOrders: true, liveTrading: false, name: 'Eval 2' })
  t.match(autoPlace.json(), { account: { name: 'Eval 2', liveTrading: false, autoPlaceOrders: true }, feedCommand: null })
  t.same((await call('GET', '/api/trading-settings')).json().settings.live_trading.value, { enabled: false, autoPlaceOrders: true }, "an additional account's switches leave the primary's")

  t.equal((await call('PATCH', `/api/accounts/${extra.id}`, {})).statusCode, 400, 'an empty change')
  t.equal((await call('PATCH', `/api/accounts/${extra.id}`, { colour: 'red' })).statusCode, 400, 'an unknown field')
  t.equal((await call('PATCH', '/api/accounts/not-a-uuid', { name: 'x' })).statusCode, 400, 'a malformed id')

  const primaryDelete = await call('DELETE', `/api/accounts/${primary.id}`)
  t.equal(primaryDelete.statusCode, 409)
  t.match(primaryDelete.json(), { code: 'primary_account' })
  const removed = await call('DELETE', `/api/accounts/${extra.id}`)
  t.equal(removed.statusCode, 200)
  t.match(removed.json(), { account: { id: extra.id } })
  t.equal((await call('DELETE', `/api/accounts/${extra.id}`)).statusCode, 404, 'gone')
  t.equal((await call('GET', '/api/broker-credentials')).json().credentials.accountId, 'P-1', "the primary's login stays")
})

t.test("a trader sees and changes only their own accounts: another's answers 404", async (t) => {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const owner = await createUser('cy')
  const other = await createUser('di')
  const primary = (await app.inject({ method: 'POST', url: '/api/accounts', headers: owner, payload: { name: 'Main', brokerAccountId: 'P-1', login: paperLogin } })).json().account
  const extra = (await app.inject({ method: 'POST', url: '/api/accounts', headers: owner, payload: { name: 'Eval', brokerAccountId: 'P-2', loginId: primary.loginId } })).json().account

  const theirs = (await app.inject({ method: 'GET', url: '/api/accounts', headers: other })).json().accounts
  t.equal(theirs.length, 1)
  t.not(theirs[0].id, primary.id)
  for (const id of [primary.id, extra.id]) {
    const attempts = [
      await app.inject({ method: 'PATCH', url: `/api/accounts/${id}`, headers: other, payload: { name: 'mine now' } }),
      await app.inject({ method: 'DELETE', url: `/api/accounts/${id}`, headers: other }),
      await app.inject({ method: 'GET', url: `/api/accounts/${id}/risk-engine/config`, headers: other }),
      await app.inject({ method: 'POST', url: `/api/accounts/${id}/risk-engine/config`, headers: other, payload: DEFAULT_RISK_ENGINE_CONFIG }),
    ]
    t.same(attempts.map((each) => each.statusCode), [404, 404, 404, 404], `every route refuses ${id === primary.id ? 'the primary' : 'an additional account'}`)
    t.match(attempts[0]?.json(), { success: false, error: 'Account not found' })
  }
  const borrowed = await app.inject({ method: 'POST', url: '/api/accounts', headers: other, payload: { name: 'Borrowed', brokerAccountId: 'P-3', loginId: primary.loginId } })
  t.equal(borrowed.statusCode, 404, "another trader's login cannot be used")
  t.match((await app.inject({ method: 'GET', url: '/api/accounts', headers: owner })).json().accounts, [{ name: 'Main' }, { name: 'Eval' }], 'nothing changed')
})

t.test("each account has its own risk configuration; the primary's is the spec's /api/risk-engine/config", async (t) => {
  const { app, createUser } = await build(t)
  answerLoginTests(t, app)
  const headers = await createUser('ed')
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const primary = (await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })).json().account
  const extra = (await call('POST', '/api/accounts', { name: 'Eval', brokerAccountId: 'P-2', loginId: primary.loginId })).json().account
  const small = { ...structuredClone(DEFAULT_RISK_ENGINE_CONFIG), limits: { ...DEFAULT_RISK_ENGINE_CONFIG.limits, maxOpenTrades: 1 } }
  const large = { ...structuredClone(DEFAULT_RISK_ENGINE_CONFIG), limits: { ...DEFAULT_RISK_ENGINE_CONFIG.limits, maxOpenTrades: 4 } }

  t.match((await call('GET', `/api/accounts/${extra.id}/risk-engine/config`)).json(), { config: DEFAULT_RISK_ENGINE_CONFIG, isDefault: true, updatedAt: null })
  const savedExtra = await call('POST', `/api/accounts/${extra.id}/risk-engine/config`, small)
  t.equal(savedExtra.statusCode, 200, savedExtra.body)
  t.match((await call('GET', `/api/accounts/${extra.id}/risk-engine/config`)).json(), { config: { limits: { maxOpenTrades: 1 } }, isDefault: false })
  t.match((await call('GET', '/api/risk-engine/config')).json(), { isDefault: true }, "an additional account's configuration is not the primary's")

  await call('POST', `/api/accounts/${primary.id}/risk-engine/config`, large)
  t.match((await call('GET', '/api/risk-engine/config')).json(), { config: { limits: { maxOpenTrades: 4 } }, isDefault: false }, "the primary's saves where the connector reads")
  await call('POST', '/api/risk-engine/config', small)
  t.match((await call('GET', `/api/accounts/${primary.id}/risk-engine/config`)).json(), { config: { limits: { maxOpenTrades: 1 } } }, "the spec's route saves the primary's")

  const bad = await call('POST', `/api/accounts/${extra.id}/risk-engine/config`, { ...large, limits: { ...large.limits, maxOpenTrades: -1 } })
  t.equal(bad.statusCode, 400)
  t.match((await call('GET', `/api/accounts/${extra.id}/risk-engine/config`)).json(), { config: { limits: { maxOpenTrades: 1 } } }, 'a refused save changes nothing')
})

t.test("GET /api/accounts: the primary's status is the live-trading status's; an additional account says it does not trade yet", async (t) => {
  const { app, createUser } = await build(t, { overrides: { FEED_DOWN_GRACE_MS: '60000' } })
  answerLoginTests(t, app)
  const headers = await createUser('cy')
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const both = async () => {
    const [accounts, status] = await Promise.all([call('GET', '/api/accounts'), call('GET', '/api/live-trading-status')])
    t.equal(accounts.statusCode, 200, accounts.body)
    const { indicator, indicatorReason, brokerConnection } = status.json().status
    return { accounts: accounts.json().accounts as { isPrimary: boolean; status: Record<string, unknown> }[], spec: { trading: true, indicator, indicatorReason, brokerConnection } }
  }

  const fresh = await both()
  t.same(fresh.accounts[0]?.status, fresh.spec, 'a new trader: the same status as the spec route')
  t.match(fresh.accounts[0]?.status, { trading: true, indicator: 'gray', brokerConnection: { state: 'not_started', health: 'off' } })

  const primary = (await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })).json().account
  await call('POST', '/api/accounts', { name: 'Eval', brokerAccountId: 'P-2', loginId: primary.loginId })
  await call('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })
  const kv = await openBucket(app.bus, Buckets.feedStatus)
  const now = new Date().toISOString()
  await kv.put(feedStatusKey('cy'), JSON.stringify({ version: 1, userId: 'cy', state: 'connected', detail: null, updatedAt: now, lastHeardAt: now, instanceId: 'i-1' }))
  const green = await both()
  t.same(green.accounts[0]?.status, green.spec)
  t.match(green.accounts[0]?.status, { trading: true, indicator: 'green', indicatorReason: null, brokerConnection: { connected: true, state: 'connected', up: true, health: 'green' } }, 'live, auto-place, credentials, the feed up')
  t.same(green.accounts[1]?.status, {
    trading: false, indicator: 'gray', brokerConnection: null,
    indicatorReason: 'Not trading yet: only your primary account trades until the broker connection trades by account.',
  }, 'the additional account does not trade yet, and says so')

  await kv.put(feedStatusKey('cy'), JSON.stringify({ version: 1, userId: 'cy', state: 'error', detail: 'Incorrect username or password', updatedAt: now, instanceId: 'i-1' }))
  const failing = await both()
  t.same(failing.accounts[0]?.status, failing.spec)
  t.match(failing.accounts[0]?.status, { indicator: 'yellow', indicatorReason: /The broker connection failed: Incorrect username or password/, brokerConnection: { state: 'error', up: false } })
})

t.test('POST /api/accounts tries a new login at the broker first: a refusal 400, a broker that cannot be asked 503, nothing stored', async (t) => {
  const { app, createUser } = await build(t)
  let reply: { ok: boolean; kind: string | null; detail: string } = { ok: false, kind: 'credentials_refused', detail: 'The broker refused the login: Incorrect username or password' }
  const seen = answerLoginTests(t, app, () => ({ version: 1, ...reply }))
  const headers = await createUser('di')
  const call = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({ method, url, headers, payload })
  const stored = async () => ({
    logins: (await app.db.selectFrom('broker_logins').select('id').where('user_id', '=', 'di').execute()).length,
    credentials: (await findPrimaryLogin(app.db, 'di')) ? 1 : 0,
    accounts: (await call('GET', '/api/accounts')).json().accounts.length,
  })

  const refused = await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })
  t.equal(refused.statusCode, 400)
  t.match(refused.json(), { success: false, error: 'Invalid account: The broker refused the login: Incorrect username or password', code: 'credentials_refused', test: { ok: false, kind: 'credentials_refused', testedAt: String } })
  t.same(await stored(), { logins: 0, credentials: 0, accounts: 1 }, 'a refused login is not stored, the primary stays unlinked')
  t.match(seen, [{ version: 1, userId: 'di', login: { broker: 'paper', environment: 'demo', accountId: 'P-1', keyId: String, iv: String, tag: String, ciphertext: String } }], 'the login crosses the bus sealed')
  t.notMatch(JSON.stringify(seen), /pw-unique-8812|eval\.trader/, 'never its user name or password in the clear')

  reply = { ok: false, kind: 'account_not_found', detail: 'The broker accepted the login but not the account: no account "P-1"' }
  const account = await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })
  t.equal(account.statusCode, 400)
  t.match(account.json(), { code: 'account_not_found', error: /^Invalid account: The broker accepted the login but not the account/ })

  reply = { ok: false, kind: 'unavailable', detail: 'The broker could not be reached or did not let the login through now: timed out' }
  const down = await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })
  t.equal(down.statusCode, 503)
  t.match(down.json(), { success: false, code: 'login_not_tried', error: /^The login could not be tried at the broker now, so the account was not added: .*timed out/ })
  t.same(await stored(), { logins: 0, credentials: 0, accounts: 1 }, 'nor one that could not be tried')

  reply = { ok: true, kind: null, detail: 'The broker accepted the login: account P-1.' }
  const linked = await call('POST', '/api/accounts', { name: 'Main', brokerAccountId: 'P-1', login: paperLogin })
  t.equal(linked.statusCode, 200, linked.body)
  t.same(await stored(), { logins: 1, credentials: 1, accounts: 1 }, 'an accepted login links the primary')
  const asked = seen.length
  const second = await call('POST', '/api/accounts', { name: 'Eval', brokerAccountId: 'P-2', loginId: linked.json().account.loginId })
  t.equal(second.statusCode, 200)
  t.equal(seen.length, asked, 'an existing login is not tried again')

  reply = { ok: false, kind: 'credentials_refused', detail: 'The broker refused the login: Incorrect username or password' }
  const extra = await call('POST', '/api/accounts', { name: 'Other', brokerAccountId: 'X-1', login: { ...paperLogin, username: 'other.login' } })
  t.equal(extra.statusCode, 400, 'an additional account under a new login is tried too')
  t.same(await stored(), { logins: 1, credentials: 1, accounts: 2 })
})

t.test('POST /api/accounts with a new login when no broker connector answers: 503, nothing stored', async (t) => {
  const { app, createUser } = await build(t, { overrides: { CREDENTIALS_TEST_TIMEOUT_MS: '500' } })
  const headers = await createUser('ed')
  const response = await app.inject({ method: 'POST', url: '/api/accounts', headers, payload: { name: 'Main', brokerAccountId: 'P-1', login: paperLogin } })
  t.equal(response.statusCode, 503)
  t.match(response.json(), { success: false, code: 'login_not_tried', test: { kind: 'no_answer' }, error: /no broker connector answered/ })
  t.equal((await app.db.selectFrom('broker_logins').select('id').execute()).length, 0)
})
