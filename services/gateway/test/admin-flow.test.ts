import t from 'tap'
import { createRedisClient } from '@signals/sessions'
import { TEST_REDIS_URL } from '@signals/test-support'
import { subjectFor } from '@signals/dev-oidc-provider'
import { PUBLIC_URL, sessionIdOf, signIn, startPlatform, unique } from './helper.ts'

// The whole front door with the real admin service: provider, auth, admin and gateway.
const redis = createRedisClient(TEST_REDIS_URL)
await redis.connect()
t.teardown(() => redis.close())

const platform = await startPlatform(t, {}, { realAdmin: true })
const { gateway } = platform
const admin = await signIn(gateway, platform.adminEmail)

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string, payload?: object) =>
  gateway.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) })

t.test('a non-administrator is refused on admin routes', async (t) => {
  const email = `trader-${unique()}@example.com`
  const trader = await signIn(gateway, email)
  await call('POST', `/api/admin/users/${subjectFor(email)}/approve`, admin.sessionCookie)
  for (const [method, url] of [
    ['GET', '/api/admin/users'],
    ['POST', `/api/admin/users/${subjectFor(email)}/approve`],
    ['GET', '/api/admin/audit'],
    ['POST', '/api/admin/bans'],
  ] as const) {
    const response = await call(method, url, trader.sessionCookie, method === 'POST' ? { email: 'x@example.com' } : undefined)
    t.equal(response.statusCode, 403, `${method} ${url}`)
    t.same(response.json(), { success: false, error: 'Administrator only' })
  }
})

t.test("an administrator's approval takes effect on the user's very next request", async (t) => {
  const email = `waiting-${unique()}@example.com`
  const user = await signIn(gateway, email)
  t.equal(user.location, '/pending-approval.html')
  const before = await call('GET', '/api/live-trading-status', user.sessionCookie)
  t.same(before.json(), { success: false, error: 'Account pending approval' })

  const listed = await call('GET', `/api/admin/users?status=pending&search=${encodeURIComponent(email)}`, admin.sessionCookie)
  t.match(listed.json(), { success: true, users: [{ userId: subjectFor(email), email, approved: false }], nextCursor: null })

  const approval = await call('POST', `/api/admin/users/${subjectFor(email)}/approve`, admin.sessionCookie)
  t.equal(approval.statusCode, 200)
  t.match(approval.json(), { success: true, user: { userId: subjectFor(email), approved: true } })

  const after = await call('GET', '/api/live-trading-status', user.sessionCookie)
  t.equal(after.statusCode, 200, 'the same session is let through at once')
  t.match(after.json(), { service: 'settings', identity: { userId: subjectFor(email), approved: true, role: 'trader' } })
  const page = await gateway.inject({ method: 'GET', url: '/', headers: { cookie: user.sessionCookie } })
  t.equal(page.statusCode, 200, 'and so is the home page')
})

t.test('a ban ends a live session at once and refuses the next sign-in with its reason', async (t) => {
  const email = `doomed-${unique()}@example.com`
  const user = await signIn(gateway, email)
  await call('POST', `/api/admin/users/${subjectFor(email)}/approve`, admin.sessionCookie)
  t.equal((await call('GET', '/api/trading-settings', user.sessionCookie)).statusCode, 200)

  const ban = await call('POST', '/api/admin/bans', admin.sessionCookie, { email: email.toUpperCase(), reason: 'Abuse of the webhook' })
  t.equal(ban.statusCode, 201)
  t.match(ban.json(), { success: true, sessionsEnded: 1 })
  t.equal(await redis.exists(`sess:${sessionIdOf(user.sessionCookie)}`), 0, 'the session is gone from Redis')

  // Issue 25: the banned trader is told so, with the reason, wherever they are turned away.
  const next = await call('GET', '/api/trading-settings', user.sessionCookie)
  t.equal(next.statusCode, 403, 'the next request is refused')
  t.same(next.json(), { success: false, error: 'Account banned', reason: 'Abuse of the webhook' })
  const page = await gateway.inject({ method: 'GET', url: '/', headers: { cookie: user.sessionCookie } })
  t.equal(page.statusCode, 302)
  const landing = new URL(String(page.headers.location), PUBLIC_URL)
  t.equal(landing.pathname, '/login.html', 'a page goes to sign-in')
  t.same(Object.fromEntries(landing.searchParams), { error: 'banned', reason: 'Abuse of the webhook' }, 'with the ban and its reason')
  const me = await gateway.inject({ method: 'GET', url: '/auth/me', headers: { cookie: user.sessionCookie } })
  t.equal(me.statusCode, 403, 'the pending page polling /auth/me learns it too')
  t.same(me.json(), { success: false, error: 'Account banned', reason: 'Abuse of the webhook' })

  const again = await signIn(gateway, email)
  t.equal(again.response.statusCode, 403)
  t.match(again.response.body, /Abuse of the webhook/)
  t.notOk(again.sessionCookie)

  const audit = await call('GET', '/api/admin/audit?action=ban', admin.sessionCookie)
  t.match(audit.json(), { entries: [{ actorUserId: subjectFor(platform.adminEmail), action: 'ban', target: email, reason: 'Abuse of the webhook' }] })

  // Once the ban is lifted, the old cookie is just a lost session.
  t.equal((await call('DELETE', `/api/admin/bans/${encodeURIComponent(email)}`, admin.sessionCookie)).statusCode, 200)
  const lifted = await call('GET', '/api/trading-settings', user.sessionCookie)
  t.equal(lifted.statusCode, 401)
  t.same(lifted.json(), { success: false, error: 'Authentication required' })
})

t.test('/docs serves one document merged from the services, despite one that is not a service', async (t) => {
  const page = await gateway.inject({ method: 'GET', url: '/docs' })
  t.ok(page.statusCode === 200 || page.statusCode === 302, `docs page answers (${page.statusCode})`)
  const doc = await gateway.inject({ method: 'GET', url: '/docs/json' })
  t.equal(doc.statusCode, 200)
  const body = doc.json<{ paths: Record<string, unknown>; info: { description: string }; components: { securitySchemes: unknown } }>()
  t.ok(body.paths['/api/admin/users'], 'the admin routes are there')
  t.ok(body.paths['/api/admin/bans/{email}'])
  t.match(body.info.description, /unavailable just now\): settings, broker-connector, ingest\.$/, 'the echo stand-ins have no document and are named, the real auth is not')
  t.same(body.components.securitySchemes, { session: { type: 'apiKey', in: 'cookie', name: 'signals.sid' } })
})

t.test('/docs describes sign-in and the live socket, and every operation has its own operation id', async (t) => {
  const body = (await gateway.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, { operationId?: string; description?: string }>> }>()
  for (const path of ['/auth/google', '/auth/google/callback', '/auth/logout', '/auth/me']) t.ok(body.paths[path], `${path} is described`)
  t.equal(body.paths['/api/live']?.get?.operationId, 'openLiveSocket')
  t.match(body.paths['/api/live']?.get?.description ?? '', /WebSocket/)
  t.equal(body.paths['/api/admin/bans/{email}']?.delete?.operationId, 'deleteApiAdminBansByEmail', 'an id derived from method and path where a route names none')
  const ids = Object.values(body.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId))
  t.ok(ids.length > 8, `${ids.length} operations`)
  t.ok(ids.every((id) => typeof id === 'string' && id !== ''), 'every operation has an id')
  t.equal(new Set(ids).size, ids.length, 'no two share one')
})
