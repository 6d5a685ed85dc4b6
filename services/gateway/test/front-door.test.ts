import t from 'tap'
import { createServer, connect, type Socket } from 'node:net'
import { createRedisClient, writeUserStatus } from '@signals/sessions'
import { TEST_REDIS_URL } from '@signals/test-support'
import { subjectFor } from '@signals/dev-oidc-provider'
import { build, signIn, startPlatform, unique } from './helper.ts'

const redis = createRedisClient(TEST_REDIS_URL)
await redis.connect()
t.teardown(() => redis.close())

t.test('security headers: strict CSP, no framing, no sniffing; no HSTS on plain http', async (t) => {
  const { app } = await build(t)
  const response = await app.inject({ method: 'GET', url: '/login.html' })
  t.equal(response.statusCode, 200)
  const csp = String(response.headers['content-security-policy'])
  t.match(csp, /default-src 'self'/)
  t.match(csp, /script-src 'self'(;|$)/, 'no inline or remote scripts')
  t.match(csp, /frame-ancestors 'none'/)
  t.equal(response.headers['x-content-type-options'], 'nosniff')
  t.equal(response.headers['referrer-policy'], 'same-origin')
  t.notOk(response.headers['strict-transport-security'])
  t.notMatch(csp, /upgrade-insecure-requests/)

  const https = await build(t, { PUBLIC_URL: 'https://signals.example.com' })
  const secure = await https.app.inject({ method: 'GET', url: '/login.html' })
  t.match(String(secure.headers['strict-transport-security']), /max-age=\d+/)
  t.match(String(secure.headers['content-security-policy']), /upgrade-insecure-requests/)
})

t.test('/auth/* is rate limited per client; an unreachable service answers 503 "try again"', async (t) => {
  const { app } = await build(t, { AUTH_RATE_LIMIT: '3', AUTH_URL: 'http://127.0.0.1:9' })
  for (let i = 0; i < 3; i++) {
    const response = await app.inject({ method: 'GET', url: '/auth/google' })
    t.equal(response.statusCode, 503, 'auth is down')
    t.same(response.json(), { success: false, error: 'Service temporarily unavailable, please try again' })
  }
  const limited = await app.inject({ method: 'GET', url: '/auth/google' })
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { success: false, error: /Too many sign-in requests/ })
  t.ok(limited.headers['retry-after'])
  const other = await app.inject({ method: 'GET', url: '/auth/google', remoteAddress: '10.1.2.3' })
  t.equal(other.statusCode, 503, 'another client is counted on its own')
})

t.test('when Redis cannot count, sign-in is not limited: the limiter lets requests through at once', async (t) => {
  // Redis through a forwarder the test cuts: the gateway's connection to it is lost mid-run.
  const sockets = new Set<Socket>()
  const redisUrl = new URL(TEST_REDIS_URL)
  const target = { port: Number(redisUrl.port || 6379), host: redisUrl.hostname }
  const forwarder = createServer((client) => {
    const upstream = connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('error', () => undefined)
      socket.on('close', () => sockets.delete(socket))
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve))
  t.teardown(() => forwarder.close())
  const { port } = forwarder.address() as { port: number }
  redisUrl.hostname = '127.0.0.1'
  redisUrl.port = String(port)
  const { app } = await build(t, { AUTH_RATE_LIMIT: '1', AUTH_URL: 'http://127.0.0.1:9', REDIS_URL: redisUrl.toString() })
  t.equal((await app.inject({ method: 'GET', url: '/auth/google' })).statusCode, 503, 'counted while Redis is there')
  t.equal((await app.inject({ method: 'GET', url: '/auth/google' })).statusCode, 429, 'and limited')
  forwarder.close()
  for (const socket of sockets) socket.destroy()
  for (let i = 0; i < 3; i++) {
    const started = Date.now()
    const response = await app.inject({ method: 'GET', url: '/auth/google', remoteAddress: '10.9.8.7' })
    t.equal(response.statusCode, 503, `sign-in ${i + 1} reaches auth (down here) though over the limit`)
    t.ok(Date.now() - started < 1_500, 'without waiting for Redis')
  }
})

t.test('/auth/me is not a sign-in attempt: it has its own, generous budget (issue 25)', async (t) => {
  const { app } = await build(t, { AUTH_RATE_LIMIT: '3', AUTH_ME_RATE_LIMIT: '8', AUTH_URL: 'http://127.0.0.1:9' })
  const call = (url: string) => app.inject({ method: 'GET', url })
  // The pending page polls /auth/me every 3 s and the home page reads it twice per load.
  for (let i = 0; i < 6; i++) t.equal((await call('/auth/me')).statusCode, 503, `/auth/me call ${i + 1} reaches auth`)
  for (let i = 0; i < 3; i++) t.equal((await call('/auth/google')).statusCode, 503, `sign-in ${i + 1} is not limited by the /auth/me calls`)
  t.equal((await call('/auth/google')).statusCode, 429, 'the fourth sign-in is')
  t.equal((await call('/auth/me')).statusCode, 503, '/auth/me still answers while sign-in is limited')
  t.equal((await call('/auth/me?x=1')).statusCode, 503, 'with a query too')
  t.equal((await call('/auth/me')).statusCode, 429, '/auth/me past its own budget is limited')
})

t.test('a rate-limited browser navigation gets a readable page saying when to try again; JSON clients keep JSON', async (t) => {
  const { app } = await build(t, { AUTH_RATE_LIMIT: '1', AUTH_URL: 'http://127.0.0.1:9' })
  t.equal((await app.inject({ method: 'GET', url: '/auth/google' })).statusCode, 503)
  const navigation = await app.inject({
    method: 'GET',
    url: '/auth/google',
    headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
  })
  t.equal(navigation.statusCode, 429)
  t.match(navigation.headers['content-type'], /^text\/html/)
  t.ok(Number(navigation.headers['retry-after']) > 0, 'Retry-After is sent')
  t.match(navigation.body, /Too many sign-in attempts/)
  t.match(navigation.body, new RegExp(`try again in ${navigation.headers['retry-after']} seconds`))
  t.match(navigation.body, /href="\/login.html"/)
  t.match(String(navigation.headers['content-security-policy']), /default-src 'self'/, 'the page keeps the strict CSP')
  const oldBrowser = await app.inject({ method: 'GET', url: '/auth/google', headers: { accept: 'text/html' } })
  t.match(oldBrowser.headers['content-type'], /^text\/html/, 'a browser without Sec-Fetch-Mode asking for HTML gets the page')
  for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*', 'sec-fetch-mode': 'cors' }]) {
    const json = await app.inject({ method: 'GET', url: '/auth/google', headers })
    t.equal(json.statusCode, 429)
    t.match(json.json(), { success: false, error: /Too many sign-in requests, please try again in \d+ s/ }, `JSON for ${JSON.stringify(headers)}`)
  }
})

t.test('pages: signed out to the login page, pending to the pending page, approved home', async (t) => {
  const platform = await startPlatform(t)
  const { gateway } = platform
  const page = (url: string, cookie?: string) => gateway.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })

  t.equal((await page('/')).headers.location, '/login.html')
  t.equal((await page('/index.html')).headers.location, '/login.html')
  t.equal((await page('/pending-approval.html')).headers.location, '/login.html')
  t.equal((await page('/login.html')).statusCode, 200)
  t.equal((await page('/styles.css')).statusCode, 200, 'assets need no session')
  t.equal((await page('/index%2Ehtml')).headers.location, '/login.html', 'an encoded page name is still guarded')
  t.equal((await page('/./index.html')).headers.location, '/login.html')

  const email = `pages-${unique()}@example.com`
  const user = await signIn(gateway, email)
  t.equal((await page('/', user.sessionCookie)).headers.location, '/pending-approval.html')
  t.equal((await page('/pending-approval.html', user.sessionCookie)).statusCode, 200)

  await writeUserStatus(redis, subjectFor(email), { email, role: 'trader', approved: true, banned: false })
  t.equal((await page('/', user.sessionCookie)).statusCode, 200)
  t.equal((await page('/pending-approval.html', user.sessionCookie)).headers.location, '/')

  await writeUserStatus(redis, subjectFor(email), { email, role: 'trader', approved: true, banned: true })
  t.equal((await page('/', user.sessionCookie)).headers.location, '/login.html?error=banned')
  t.equal((await page('/', user.sessionCookie)).headers.location, '/login.html', 'the session is gone')
})

t.test('with an https PUBLIC_URL behind a TLS proxy the session cookie is Secure', async (t) => {
  const platform = await startPlatform(t, { PUBLIC_URL: 'https://signals.example.com', TRUST_PROXY: '127.0.0.1' })
  const user = await signIn(platform.gateway, platform.adminEmail, { headers: { 'x-forwarded-proto': 'https' } })
  t.equal(user.location, '/')
  const setCookie = String(user.response.headers['set-cookie'])
  t.match(setCookie, /signals\.sid=.*; Secure/i)
  t.match(setCookie, /HttpOnly/i)
  t.match(setCookie, /SameSite=Lax/i)
  const api = await platform.gateway.inject({ method: 'GET', url: '/api/trading-settings', headers: { cookie: user.sessionCookie, 'x-forwarded-proto': 'https' } })
  t.equal(api.statusCode, 200)
})
