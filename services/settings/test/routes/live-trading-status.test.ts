import t from 'tap'
import { openBucket } from '@signals/bus'
import { Buckets, feedStatusKey } from '@signals/contracts'
import { eventually } from '@signals/test-support'
import { build } from '../helper.ts'

const credentials = { broker: 'paper', environment: 'demo', accountId: 'PAPER-42', username: 'trader.one', password: 'hunter2-password' }

t.test('live-trading-status: the four indicator states, red winning over yellow, exactly the spec fields', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('jane')
  const setLive = (enabled: boolean, autoPlaceOrders: boolean) =>
    app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'live_trading', settingValue: { enabled, autoPlaceOrders } } })
  const status = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/live-trading-status', headers })
    t.equal(response.statusCode, 200)
    return response.json()
  }

  const gray = await status()
  t.same(Object.keys(gray).sort(), ['credentials', 'settings', 'status', 'success'])
  t.same(
    Object.keys(gray.status).sort(),
    ['accountId', 'autoPlaceOrdersEnabled', 'brokerConnection', 'credentialsUpdatedAt', 'hasCredentials', 'indicator', 'indicatorReason', 'isFullyConfigured', 'liveTradesCount', 'liveTradingEnabled'],
  )
  t.same(gray.status, {
    liveTradingEnabled: false,
    autoPlaceOrdersEnabled: false,
    hasCredentials: false,
    isFullyConfigured: false,
    liveTradesCount: 0,
    accountId: null,
    credentialsUpdatedAt: null,
    indicator: 'gray',
    indicatorReason: null,
    brokerConnection: { connected: false, state: 'not_started', detail: null, updatedAt: null, lastHeardAt: null, up: false, health: 'off' },
  })
  t.same(Object.keys(gray.settings).sort(), ['live_trading', 'risk_strategy'], 'settings are the user settings')
  t.equal(gray.credentials, null)

  await setLive(true, false)
  t.equal((await status()).status.indicator, 'red', 'live on, auto-place off, no credentials: red wins over yellow')
  await setLive(true, true)
  const red = await status()
  t.equal(red.status.indicator, 'red', 'live on, no credentials')
  t.equal(red.status.isFullyConfigured, false)

  const saved = await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: credentials })
  t.equal(saved.statusCode, 200)
  const green = await status()
  t.equal(green.status.indicator, 'green')
  t.equal(green.status.isFullyConfigured, true)
  t.equal(green.status.hasCredentials, true)
  t.equal(green.status.accountId, 'PAPER-42')
  t.equal(green.status.credentialsUpdatedAt, saved.json().credentials.updatedAt)
  t.same(green.credentials, { broker: 'paper', environment: 'demo', accountId: 'PAPER-42', usernameMasked: 't********e', updatedAt: green.status.credentialsUpdatedAt })

  await setLive(true, false)
  const yellow = await status()
  t.equal(yellow.status.indicator, 'yellow', 'live on, credentials, auto-place off')
  t.equal(yellow.status.isFullyConfigured, false)

  await setLive(false, true)
  t.equal((await status()).status.indicator, 'gray', 'live off is gray whatever else holds')
})

t.test('liveTradesCount counts only the user\'s open trades', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('kim')
  await createUser('other')
  const trade = (userId: string, status: 'open' | 'closed' | 'cancelled') => ({
    user_id: userId,
    symbol: 'MNQ1!',
    side: 'LONG' as const,
    quantity: 1,
    entry_price: '21000.25',
    status,
    ...(status === 'closed' ? { exit_price: '21010.25', result: 'TP' as const, pnl: '20.00', closed_at: new Date() } : {}),
  })
  await app.db
    .insertInto('trades')
    .values([trade('kim', 'open'), trade('kim', 'open'), trade('kim', 'closed'), trade('kim', 'cancelled'), trade('other', 'open')])
    .execute()
  const body = (await app.inject({ method: 'GET', url: '/api/live-trading-status', headers })).json()
  t.equal(body.status.liveTradesCount, 2)
})

t.test('brokerConnection reflects the connector\'s FEED_STATUS entry; a missing key is not connected', async (t) => {
  const { app, createUser } = await build(t)
  const headers = await createUser('user/with:odd chars')
  const kv = await openBucket(app.bus, Buckets.feedStatus)
  const read = async () => (await app.inject({ method: 'GET', url: '/api/live-trading-status', headers })).json().status.brokerConnection

  t.same(await read(), { connected: false, state: 'not_started', detail: null, updatedAt: null, lastHeardAt: null, up: false, health: 'off' })
  const updatedAt = new Date().toISOString()
  await kv.put(feedStatusKey('user/with:odd chars'), JSON.stringify({ version: 1, userId: 'user/with:odd chars', state: 'connected', detail: null, updatedAt }))
  t.same(await read(), { connected: true, state: 'connected', detail: null, updatedAt, lastHeardAt: null, up: true, health: 'off' })
  await kv.put(feedStatusKey('user/with:odd chars'), JSON.stringify({ version: 1, userId: 'user/with:odd chars', state: 'error', detail: 'login refused', updatedAt }))
  t.same(await read(), { connected: false, state: 'error', detail: 'login refused', updatedAt, lastHeardAt: null, up: false, health: 'off' })
  await kv.put(feedStatusKey('user/with:odd chars'), 'not json')
  t.match(await read(), { connected: false, state: 'unknown' }, 'an unreadable entry is not reported as connected')
  await kv.delete(feedStatusKey('user/with:odd chars'))
  t.match(await read(), { connected: false, state: 'not_started' }, 'a deleted key is not connected')
})

t.test('a live user\'s feed health: green while up or down within the grace, red once down (or unheard) for longer', async (t) => {
  // Times are written in the past instead of waited for: the route compares them with its clock.
  const grace = 60_000
  const { app, createUser } = await build(t, { overrides: { FEED_DOWN_GRACE_MS: String(grace) } })
  const userId = 'grace-user'
  const headers = await createUser(userId)
  await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } } })
  const kv = await openBucket(app.bus, Buckets.feedStatus)
  const read = async () => (await app.inject({ method: 'GET', url: '/api/live-trading-status', headers })).json().status.brokerConnection
  const write = (state: string, lastHeardAt: string | null, updatedAt = new Date().toISOString()) =>
    kv.put(feedStatusKey(userId), JSON.stringify({ version: 1, userId, state, detail: null, updatedAt, lastHeardAt, instanceId: 'i-1' }))

  t.match(await read(), { state: 'not_started', up: false, health: 'red' }, 'live on and no feed ever reported: red')
  const heard = new Date().toISOString()
  await write('connected', heard)
  t.match(await read(), { state: 'connected', lastHeardAt: heard, up: true, health: 'green' })
  await write('error', heard)
  t.match(await read(), { state: 'error', up: false, health: 'green' }, 'down, but within the grace: green')
  const heardBeforeTheGrace = new Date(Date.now() - grace - 1_000).toISOString()
  await write('error', heardBeforeTheGrace)
  t.match(await read(), { state: 'error', lastHeardAt: heardBeforeTheGrace, up: false, health: 'red' }, 'down longer than the grace: red')
  await write('connected', heardBeforeTheGrace)
  t.match(await read(), { state: 'connected', up: false, health: 'red' }, 'still "connected" but the broker unheard longer than the grace (its holder died): red')
  await write('connected', new Date().toISOString())
  t.match(await read(), { up: true, health: 'green' }, 'heard again: green')
})

t.test('the indicator weighs the broker: amber then red with the broker\'s words when it refuses the login, never green', async (t) => {
  const grace = 1_000
  const { app, createUser } = await build(t, { overrides: { FEED_DOWN_GRACE_MS: String(grace) } })
  const userId = 'refused-user'
  const headers = await createUser(userId)
  await app.inject({ method: 'PUT', url: '/api/broker-credentials', headers, payload: credentials })
  await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } } })
  const kv = await openBucket(app.bus, Buckets.feedStatus)
  const status = async () => (await app.inject({ method: 'GET', url: '/api/live-trading-status', headers })).json().status
  const write = (state: string, detail: string | null) =>
    kv.put(feedStatusKey(userId), JSON.stringify({ version: 1, userId, state, detail, updatedAt: new Date().toISOString(), lastHeardAt: null }))

  await write('connected', 'account PAPER-42')
  t.match(await status(), { indicator: 'green', indicatorReason: null, isFullyConfigured: true })
  await write('error', 'Login failed: incorrect username or password')
  t.match(await status(), { indicator: 'yellow', indicatorReason: 'The broker connection failed: Login failed: incorrect username or password' }, 'amber within the grace')
  await eventually(async () => (await status()).indicator === 'red', { timeoutMs: grace * 5, what: 'red past the grace' })
  t.match(await status(), { indicator: 'red', indicatorReason: 'The broker connection failed: Login failed: incorrect username or password' }, 'red past the grace')
  await write('connecting', null)
  t.match(await status(), { indicator: 'yellow', indicatorReason: 'Connecting to the broker.' })
})
