import t from 'tap'
import { randomBytes } from 'node:crypto'
import { createServiceApp } from '@signals/http-kit'
import { TEST_REDIS_URL } from '@signals/test-support'
import {
  createRedisClient,
  endUserSessions,
  mintSession,
  readUserStatus,
  redisPlugin,
  sessionPlugin,
  sessionSettings,
  sessionState,
  sessionTtlSeconds,
  userSessionsKey,
  userStatusKey,
} from '../src/index.ts'

const settings = sessionSettings({
  SESSION_SECRET: 'sessions-test-secret-0123456789-0123456789',
  PUBLIC_URL: 'https://signals.example.com/app',
  SESSION_IDLE_MINUTES: 30,
  SESSION_ABSOLUTE_HOURS: 24,
})
const redis = createRedisClient(TEST_REDIS_URL)
await redis.connect()
t.teardown(() => redis.close())

t.test('settings follow PUBLIC_URL and the time-outs', async (t) => {
  t.equal(settings.secure, true)
  t.equal(settings.publicOrigin, 'https://signals.example.com')
  t.equal(settings.idleMs, 30 * 60_000)
  t.equal(settings.absoluteMs, 24 * 3_600_000)
  t.equal(sessionSettings({ ...{ SESSION_SECRET: 'x'.repeat(32), SESSION_IDLE_MINUTES: 5, SESSION_ABSOLUTE_HOURS: 1 }, PUBLIC_URL: 'http://localhost:3000' }).secure, false)
})

t.test('sessionState: anonymous, expired by idle or absolute deadline, live and stale', async (t) => {
  const now = 10_000_000_000
  t.same(sessionState(undefined, settings, now), { kind: 'anonymous' })
  t.same(sessionState({ userId: '' }, settings, now), { kind: 'anonymous' })
  t.same(sessionState({ userId: 'u' }, settings, now), { kind: 'expired', userId: 'u' }, 'no timestamps: refused')
  t.same(sessionState({ userId: 'u', signedInAt: now - 1000, lastSeenAt: now - 1000 }, settings, now), { kind: 'live', userId: 'u', stale: false })
  t.same(sessionState({ userId: 'u', signedInAt: now - 1000, lastSeenAt: now - 61_000 }, settings, now), { kind: 'live', userId: 'u', stale: true })
  t.same(sessionState({ userId: 'u', signedInAt: now - 1000, lastSeenAt: now - 30 * 60_000 }, settings, now).kind, 'expired', 'idle')
  t.same(sessionState({ userId: 'u', signedInAt: now - 24 * 3_600_000, lastSeenAt: now }, settings, now).kind, 'expired', 'absolute')
})

t.test('a session never outlives its absolute deadline in Redis', async (t) => {
  const now = Date.now()
  t.equal(sessionTtlSeconds({ signedInAt: now, cookie: { expires: new Date(now + 30 * 60_000) } }, settings, now), 1800)
  t.equal(sessionTtlSeconds({ signedInAt: now - 24 * 3_600_000 + 60_000, cookie: { expires: new Date(now + 30 * 60_000) } }, settings, now), 60)
})

t.test('a minted session is read by the session plugin; ending the user sessions removes it', async (t) => {
  const userId = `u-${randomBytes(4).toString('hex')}`
  const cookie = await mintSession(redis, settings, userId, { email: 'a@example.com', role: 'trader', approved: true, banned: false })
  t.same(await readUserStatus(redis, userId), { email: 'a@example.com', role: 'trader', approved: true, banned: false })
  const app = await createServiceApp({ service: 'sessions-test', logLevel: 'silent' })
  t.teardown(() => app.close())
  await app.register(redisPlugin, { url: TEST_REDIS_URL })
  await app.register(sessionPlugin, { settings })
  app.get('/who', async (request) => ({ userId: request.session.userId ?? null }))
  const seen = await app.inject({ method: 'GET', url: '/who', headers: { cookie } })
  t.same(seen.json(), { userId })
  t.notOk(seen.headers['set-cookie'], 'an unmodified session is not rewritten')
  const tampered = await app.inject({ method: 'GET', url: '/who', headers: { cookie: cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) } })
  t.same(tampered.json(), { userId: null }, 'a bad signature reads as no session')

  t.equal(await endUserSessions(redis, userId), 1)
  t.equal(await redis.exists(userSessionsKey(userId)), 0)
  t.same((await app.inject({ method: 'GET', url: '/who', headers: { cookie } })).json(), { userId: null })
  await redis.del(userStatusKey(userId))
})

t.test('Redis down: the session store answers 503, not 500', async (t) => {
  const { startPrivateRedis } = await import('@signals/test-support')
  const server = await startPrivateRedis()
  t.teardown(() => server.destroy())
  const app = await createServiceApp({ service: 'sessions-test', logLevel: 'silent' })
  t.teardown(() => app.close())
  await app.register(redisPlugin, { url: server.url })
  await app.register(sessionPlugin, { settings })
  app.get('/who', async (request) => ({ userId: request.session.userId ?? null }))
  await app.ready()
  const cookie = await mintSession(app.redis, settings, 'u-down', { email: 'a@example.com', role: 'trader', approved: true, banned: false })
  await server.stop()
  const response = await app.inject({ method: 'GET', url: '/who', headers: { cookie } })
  t.equal(response.statusCode, 503)
  t.same(response.json(), { success: false, error: 'Service temporarily unavailable, please try again' })
})
