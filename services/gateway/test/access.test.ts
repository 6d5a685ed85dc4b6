import t from 'tap'
import { createRedisClient, endUserSessions, readUserStatus, userStatusKey, writeUserStatus } from '@signals/sessions'
import { signIdentity } from '@signals/http-kit'
import { TEST_REDIS_URL } from '@signals/test-support'
import { subjectFor } from '@signals/dev-oidc-provider'
import { IDENTITY_HEADER, INTERNAL_AUTH_SECRET, sessionIdOf, signIn, startPlatform, unique, type Echo } from './helper.ts'

const redis = createRedisClient(TEST_REDIS_URL)
await redis.connect()
t.teardown(() => redis.close())

const platform = await startPlatform(t)
const { gateway } = platform

const admin = await signIn(gateway, platform.adminEmail)
const pendingEmail = `pending-${unique()}@example.com`
const pending = await signIn(gateway, pendingEmail)

const get = (url: string, cookie?: string, headers: Record<string, string> = {}) =>
  gateway.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } })

t.test('sign-in through the gateway lands by approval', async (t) => {
  t.equal(admin.location, '/')
  t.equal(pending.location, '/pending-approval.html')
  t.ok(admin.sessionCookie)
})

t.test('no session: 401 with the exact body', async (t) => {
  const response = await get('/api/live-trading-status')
  t.equal(response.statusCode, 401)
  t.same(response.json(), { success: false, error: 'Authentication required' })
  const garbage = await get('/api/live-trading-status', 'signals.sid=not-a-session.signature')
  t.equal(garbage.statusCode, 401)
})

t.test('pending user: 403 with the exact body', async (t) => {
  const response = await get('/api/trading-settings', pending.sessionCookie)
  t.equal(response.statusCode, 403)
  t.same(response.json(), { success: false, error: 'Account pending approval' })
})

t.test('an approved call reaches the service with a signed identity, never the client headers', async (t) => {
  const forged = signIdentity({ userId: 'someone-else', email: 'x@example.com', role: 'admin', approved: true }, INTERNAL_AUTH_SECRET, { audience: 'settings', method: 'GET', path: '/api/live-trading-status' })
  const response = await get('/api/live-trading-status?x=1', admin.sessionCookie, { [IDENTITY_HEADER]: forged })
  t.equal(response.statusCode, 200)
  const echo = response.json<Echo>()
  t.equal(echo.service, 'settings')
  t.equal(echo.url, '/api/live-trading-status?x=1', 'path and query unchanged')
  t.same(echo.identity, { userId: subjectFor(platform.adminEmail), email: platform.adminEmail, role: 'admin', approved: true })
  t.not(echo.headers[IDENTITY_HEADER], forged, 'the client identity header was replaced')
  t.notOk(echo.headers.cookie, 'the session cookie never leaves the gateway')
})

t.test('a forged identity header without a session is ignored', async (t) => {
  const forged = signIdentity({ userId: 'u', email: 'x@example.com', role: 'admin', approved: true }, INTERNAL_AUTH_SECRET, { audience: 'admin', method: 'GET', path: '/api/admin/users' })
  const response = await get('/api/admin/users', undefined, { [IDENTITY_HEADER]: forged })
  t.equal(response.statusCode, 401)
})

t.test('a service called directly without the internal header refuses', async (t) => {
  const response = await fetch(`${platform.upstreams.settings}/api/live-trading-status`)
  t.equal(response.status, 401)
  t.same(await response.json(), { success: false, error: 'Authentication required' })
  const wrongKey = signIdentity({ userId: 'u', email: 'x@example.com', role: 'admin', approved: true }, 'another-secret-another-secret-another', { audience: 'settings', method: 'GET', path: '/api/live-trading-status' })
  const forged = await fetch(`${platform.upstreams.settings}/api/live-trading-status`, { headers: { [IDENTITY_HEADER]: wrongKey } })
  t.equal(forged.status, 401)
})

t.test('routing: each prefix reaches its service with the path unchanged', async (t) => {
  const routes: [string, string][] = [
    ['/api/trading-settings', 'settings'],
    ['/api/live-trading-status', 'settings'],
    ['/api/risk-engine/config', 'settings'],
    ['/api/broker-credentials', 'settings'],
    ['/api/brokers', 'settings'],
    ['/api/notifications/channels', 'settings'],
    ['/api/signal-sources', 'settings'],
    ['/api/signal-sources/5b1f0b8e-58a4-4c1e-9c57-1b2d3e4f5a6b/subscriptions', 'settings'],
    ['/api/accounts', 'settings'],
    ['/api/accounts/5b1f0b8e-58a4-4c1e-9c57-1b2d3e4f5a6b/risk-engine/config', 'settings'],
    ['/api/admin/users?status=pending', 'admin'],
    ['/api/admin/signal-sources', 'admin'],
    ['/api/intake?limit=5', 'admin'],
    ['/api/alerts', 'broker-connector'],
    ['/api/alerts/42', 'broker-connector'],
    ['/api/trades?limit=5', 'broker-connector'],
    ['/api/kill-switch', 'broker-connector'],
    ['/api/broker/positions', 'broker-connector'],
    ['/api/broker/orders?limit=20', 'broker-connector'],
    ['/api/alerts/42/steps', 'broker-connector'],
  ]
  for (const [url, service] of routes) {
    const response = await get(url, admin.sessionCookie)
    t.equal(response.statusCode, 200, url)
    t.match(response.json(), { service, url }, `${url} -> ${service}`)
  }
  const unknown = await get('/api/nothing-here', admin.sessionCookie)
  t.equal(unknown.statusCode, 404)
  t.equal((await get('/api/nothing-here')).statusCode, 401, 'an unknown /api path still needs a session first')
})

t.test('webhooks pass without a session, body untouched, no cookie or identity forwarded', async (t) => {
  const text = 'Action: Buy\nSymbol: MNQ1!\nEntry Price: 21000.25'
  const response = await gateway.inject({
    method: 'POST',
    url: '/webhook/alert?secret=s3',
    headers: { 'content-type': 'text/plain', cookie: admin.sessionCookie, [IDENTITY_HEADER]: 'forged' },
    payload: text,
  })
  t.equal(response.statusCode, 200)
  const echo = response.json<Echo>()
  t.match(echo, { service: 'ingest', method: 'POST', url: '/webhook/alert?secret=s3', body: text })
  t.notOk(echo.headers.cookie)
  t.notOk(echo.headers[IDENTITY_HEADER])
  t.equal(echo.headers['content-type'], 'text/plain')

  const json = '{"action":"Buy",  "symbol":"NQ1!"}'
  const jsonResponse = await gateway.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'application/json' }, payload: json })
  t.equal(jsonResponse.json<Echo>().body, json, 'JSON passes byte for byte, not re-serialised')

  // A signal source's URL (issue 22): the token in the path reaches ingest unchanged.
  const sourceUrl = '/webhook/s/Xy3_-abcdefghijklmnopqrstuvwxyz0123456789ABC'
  const source = await gateway.inject({ method: 'POST', url: sourceUrl, headers: { 'content-type': 'text/plain', cookie: admin.sessionCookie }, payload: text })
  t.match(source.json<Echo>(), { service: 'ingest', method: 'POST', url: sourceUrl, body: text })
  t.notOk(source.json<Echo>().headers.cookie)
})

t.test('cross-origin state-changing calls are refused; same-origin ones pass', async (t) => {
  const post = (headers: Record<string, string>) =>
    gateway.inject({ method: 'POST', url: '/api/trading-settings', headers: { cookie: admin.sessionCookie, 'content-type': 'application/json', ...headers }, payload: '{}' })
  const evil = await post({ origin: 'https://evil.example' })
  t.equal(evil.statusCode, 403)
  t.same(evil.json(), { success: false, error: 'Cross-origin request refused' })
  t.equal((await post({ 'sec-fetch-site': 'cross-site' })).statusCode, 403)
  t.equal((await post({ origin: 'null' })).statusCode, 403)
  t.equal((await post({ origin: 'http://localhost:3000' })).statusCode, 200)
  t.equal((await post({ 'sec-fetch-site': 'same-origin' })).statusCode, 200)
  t.equal((await get('/api/trading-settings', admin.sessionCookie, { origin: 'https://evil.example' })).statusCode, 200, 'reads are not refused')
})

t.test('approval takes effect on the very next request', async (t) => {
  const email = `approve-${unique()}@example.com`
  const user = await signIn(gateway, email)
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 403)
  const status = await readUserStatus(redis, subjectFor(email))
  await writeUserStatus(redis, subjectFor(email), { ...status!, approved: true })
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 200)
  await writeUserStatus(redis, subjectFor(email), { ...status!, approved: false })
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 403, 'and so does a revocation')
})

t.test('a banned status: 403 and the session destroyed; ending sessions: 401', async (t) => {
  const email = `ban-${unique()}@example.com`
  const user = await signIn(gateway, email)
  const sub = subjectFor(email)
  await writeUserStatus(redis, sub, { email, role: 'trader', approved: true, banned: false })
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 200)

  await writeUserStatus(redis, sub, { email, role: 'trader', approved: true, banned: true })
  const banned = await get('/api/trading-settings', user.sessionCookie)
  t.equal(banned.statusCode, 403)
  t.same(banned.json(), { success: false, error: 'Account banned', reason: null })
  t.equal(await redis.exists(`sess:${sessionIdOf(user.sessionCookie)}`), 0, 'session destroyed')

  // With a reason in the status: the refusal and the page redirect carry it (issue 25).
  const withReason = await signIn(gateway, email)
  await writeUserStatus(redis, sub, { email, role: 'trader', approved: true, banned: true, banReason: 'Spoofed alerts' })
  t.same((await get('/api/trading-settings', withReason.sessionCookie)).json(), { success: false, error: 'Account banned', reason: 'Spoofed alerts' })
  const again1 = await signIn(gateway, email)
  await writeUserStatus(redis, sub, { email, role: 'trader', approved: true, banned: true, banReason: 'Spoofed alerts' })
  const page = await gateway.inject({ method: 'GET', url: '/index.html', headers: { cookie: again1.sessionCookie } })
  t.equal(page.headers.location, '/login.html?error=banned&reason=Spoofed+alerts')
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 401)

  const again = await signIn(gateway, email)
  const other = await signIn(gateway, email)
  t.equal(await endUserSessions(redis, sub), 2, 'both sessions were indexed')
  t.equal((await get('/api/trading-settings', again.sessionCookie)).statusCode, 401)
  t.equal((await get('/api/trading-settings', other.sessionCookie)).statusCode, 401)
})

t.test('a session without a user status is refused (fail closed)', async (t) => {
  const email = `nostatus-${unique()}@example.com`
  const user = await signIn(gateway, email)
  await redis.del(userStatusKey(subjectFor(email)))
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 401)
})

t.test('a session past its absolute lifetime is refused and deleted', async (t) => {
  const email = `old-${unique()}@example.com`
  const user = await signIn(gateway, email)
  await writeUserStatus(redis, subjectFor(email), { email, role: 'trader', approved: true, banned: false })
  const key = `sess:${sessionIdOf(user.sessionCookie)}`
  const body = JSON.parse((await redis.get(key)) as string)
  await redis.set(key, JSON.stringify({ ...body, signedInAt: Date.now() - 8 * 24 * 3_600_000 }))
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 401)
  t.equal(await redis.exists(key), 0)
})

t.test('the idle deadline slides at most once a minute', async (t) => {
  const email = `idle-${unique()}@example.com`
  const user = await signIn(gateway, email)
  await writeUserStatus(redis, subjectFor(email), { email, role: 'trader', approved: true, banned: false })
  const key = `sess:${sessionIdOf(user.sessionCookie)}`
  const fresh = await get('/api/trading-settings', user.sessionCookie)
  t.notOk(fresh.headers['set-cookie'], 'a fresh session is not rewritten')
  const body = JSON.parse((await redis.get(key)) as string)
  const twoMinutesAgo = Date.now() - 120_000
  await redis.set(key, JSON.stringify({ ...body, lastSeenAt: twoMinutesAgo }), { expiration: { type: 'EX', value: 100 } })
  const stale = await get('/api/trading-settings', user.sessionCookie)
  t.equal(stale.statusCode, 200)
  t.match(String(stale.headers['set-cookie']), /signals\.sid=/, 'the cookie is renewed')
  const after = JSON.parse((await redis.get(key)) as string)
  t.ok(after.lastSeenAt > twoMinutesAgo, 'lastSeenAt moved')
  t.ok((await redis.ttl(key)) > 100, 'the Redis expiry moved with it')
})

t.test('logout through the gateway leaves no session in Redis', async (t) => {
  const email = `logout-${unique()}@example.com`
  const user = await signIn(gateway, email)
  const response = await gateway.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: user.sessionCookie, origin: 'http://localhost:3000' } })
  t.equal(response.statusCode, 303)
  t.equal(response.headers.location, '/login.html')
  t.equal(await redis.exists(`sess:${sessionIdOf(user.sessionCookie)}`), 0)
  t.equal((await get('/api/trading-settings', user.sessionCookie)).statusCode, 401)
})

t.test('the identity header the gateway signs is bound to the service, method and path it was sent with (issue 15 point 7)', async (t) => {
  const response = await get('/api/live-trading-status', admin.sessionCookie)
  const captured = response.json<Echo>().headers[IDENTITY_HEADER] as string
  const replay = (url: string, method = 'GET', upstream = platform.upstreams.settings) => fetch(`${upstream}${url}`, { method, headers: { [IDENTITY_HEADER]: captured } })
  t.equal((await replay('/api/live-trading-status')).status, 200, 'replayed as is (within 30 s) it works where it was meant to')
  t.equal((await replay('/api/trading-settings')).status, 401, 'not on another path')
  t.equal((await replay('/api/live-trading-status', 'DELETE')).status, 401, 'not with another method')
  t.equal((await replay('/api/live-trading-status', 'GET', platform.upstreams.admin)).status, 401, 'not on another service')
})
