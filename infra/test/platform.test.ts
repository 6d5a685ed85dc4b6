import t from 'tap'
import pg from 'pg'
import { signInThroughProvider } from '@signals/dev-oidc-provider/test-client'
import { waitFor } from '@signals/test-support'
import { startPlatformServices } from './platform-harness.ts'

// The whole platform in one test: every service on its own port, the real local OpenID Connect provider
// and the paper broker, one database and one bus namespace. Everything a trader does goes through the
// gateway over HTTP, as a browser would (the browser itself is covered by services/gateway/test/e2e).

const ADMIN = 'admin@platform.test'

/** The parts of the API's answers this test reads. */
interface ApiBody {
  success?: boolean
  error?: string
  user?: { userId: string; email: string }
  status?: { brokerConnection?: { connected: boolean; state: string } } & Record<string, unknown>
  alerts?: Record<string, unknown>[]
  trades?: Record<string, unknown>[]
}


t.test('sign in, connect a broker, receive alerts, close a trade: the whole chain through the gateway', async (t) => {
  const platform = await startPlatformServices(t, {
    adminEmail: ADMIN,
    brokerAccounts: [{ name: 'demo', password: 'demo-pass', userId: 1000, accountId: 9000, accountName: 'PAPER9000' }],
  })
  const { database, publicUrl, gatewayUrl: gateway } = platform

  // Sign in as the administrator through the provider's real form.
  const start = await fetch(`${gateway}/auth/google`, { redirect: 'manual' })
  t.equal(start.status, 302, '/auth/google redirects to the provider')
  const loginCookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').join('; ')
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.get('location') as string, email: ADMIN })
  const callback = new URL(callbackUrl)
  const signedIn = await fetch(`${gateway}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: loginCookies } })
  t.equal(signedIn.status, 302)
  t.equal(new URL(signedIn.headers.get('location') as string, publicUrl).pathname, '/', 'the administrator lands on the home page')
  const session = signedIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').find((cookie) => cookie.startsWith('signals.sid='))
  t.ok(session, 'a session cookie is set')
  const headers = { cookie: session as string, origin: publicUrl, 'content-type': 'application/json' }
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${gateway}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as ApiBody }
  }

  const me = await api('GET', '/auth/me')
  t.equal(me.body.user?.email, ADMIN)
  const userId = me.body.user?.userId as string

  // Broker credentials, then live trading on: the connector opens the user's paper-broker feed.
  const saved = await api('PUT', '/api/broker-credentials', {
    broker: 'paper',
    environment: 'demo',
    accountId: '9000',
    username: 'demo',
    password: 'demo-pass',
  })
  t.equal(saved.status, 200, 'credentials saved')
  t.notMatch(JSON.stringify(saved.body), /demo-pass/, 'the password never comes back')
  const enabled = await api('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })
  t.equal(enabled.status, 200)
  const status = await waitFor(async () => {
    const { body } = await api('GET', '/api/live-trading-status')
    return body.status?.brokerConnection?.connected === true ? body : undefined
  }, { what: 'the broker feed to connect', timeoutMs: 20_000, intervalMs: 100 })
  t.match(status.status, { liveTradingEnabled: true, autoPlaceOrdersEnabled: true, hasCredentials: true, isFullyConfigured: true, indicator: 'green' })

  // An entry alert posted to the public webhook (through the gateway) becomes the trader's alert record.
  const entry = { action: 'Buy', symbol: 'CME_MINI:NQ1!', entryPrice: 21000.25, sl: 20950, tp: 21100, user_id: userId, indicator: 'Breakout' }
  const accepted = await fetch(`${gateway}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(entry) })
  t.equal(accepted.status, 200)
  const receipt = (await accepted.json()) as { success: boolean; alertId: string; kind: string; duplicate: boolean }
  t.match(receipt, { success: true, kind: 'entry', duplicate: false })
  const resent = await fetch(`${gateway}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(entry) })
  t.match(await resent.json(), { success: true, alertId: receipt.alertId, duplicate: true }, { what: 'a resend is recognised', timeoutMs: 20_000, intervalMs: 100 })
  const alerts = await waitFor(async () => {
    const { body } = await api('GET', '/api/alerts')
    return body.alerts?.length ? body.alerts : undefined
  }, { what: 'the alert record', timeoutMs: 20_000, intervalMs: 100 })
  t.equal(alerts.length, 1, 'one record for one alert, though it was sent twice')
  t.match(alerts[0], { alertId: receipt.alertId, symbol: 'CME_MINI:NQ1!', root: 'NQ', action: 'LONG', entryPrice: /^21000\.25/, indicator: 'Breakout' })

  // A result alert (plain text, straight to ingest's own public port) closes the open trade with exact pnl.
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  t.teardown(() => client.end())
  await client.query("INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price) VALUES ($1, 'NQZ6', 'NQ', 'LONG', 2, '21000.25')", [userId])
  const result = await fetch(`${platform.INGEST_URL}/webhook/alert`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    body: 'Symbol: NQ1!\nResult: TP\nPrice: 21010.75\n',
  })
  t.match(await result.json(), { success: true, kind: 'result' })
  const closed = await waitFor(async () => {
    const { body } = await api('GET', '/api/trades?status=closed')
    return body.trades?.length ? body.trades : undefined
  }, { what: 'the trade to close', timeoutMs: 20_000, intervalMs: 100 })
  t.match(closed[0], { symbol: 'NQZ6', status: 'closed', result: 'TP', exitPrice: /^21010\.75/, pnl: '420.00' })

  // An alert from a premium indicator is a test: recorded, never the trader's, never traded.
  const premiumIndicator = await fetch(`${gateway}/webhook/alert`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...entry, entryPrice: 21001, isVendorTest: true }),
  })
  t.match(await premiumIndicator.json(), { success: true, kind: 'test' })
  await waitFor(async () => {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM alerts WHERE is_test')
    return rows[0].n === 1 ? true : undefined
  }, { what: 'the test alert record', timeoutMs: 20_000, intervalMs: 100 })
  t.equal((await api('GET', '/api/alerts')).body.alerts?.length, 1, "the test alert is not in the trader's records")

  // Every webhook is in the intake log, accepted or not.
  const missingUser = await fetch(`${gateway}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'Sell', symbol: 'ES1!', entryPrice: 5000 }) })
  t.equal(missingUser.status, 400)
  t.match(await missingUser.json(), { success: false, error: /user_id required/ })
  await waitFor(async () => {
    const { rows } = await client.query('SELECT outcome FROM intake_log ORDER BY received_at')
    return rows.length >= 5 ? rows : undefined
  }, { what: 'the intake log', timeoutMs: 20_000, intervalMs: 100 })

  // Live trading off: the feed stops.
  await api('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: false, autoPlaceOrders: true } })
  const stopped = await waitFor(async () => {
    const { body } = await api('GET', '/api/live-trading-status')
    return body.status?.brokerConnection?.state === 'stopped' ? body : undefined
  }, { what: 'the broker feed to stop', timeoutMs: 20_000, intervalMs: 100 })
  t.match(stopped.status, { liveTradingEnabled: false, indicator: 'gray' })

  // Signed out: the API refuses.
  const logout = await fetch(`${gateway}/auth/logout`, { method: 'POST', redirect: 'manual', headers: { cookie: session as string } })
  t.equal(logout.status, 303)
  const after = await api('GET', '/api/trading-settings')
  t.equal(after.status, 401)
  t.same(after.body, { success: false, error: 'Authentication required' })
})
