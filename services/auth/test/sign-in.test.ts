import t, { type Test } from 'tap'
import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { createRedisClient, userSessionsKey, userStatusKey } from '@signals/sessions'
import { TEST_REDIS_URL } from '@signals/test-support'
import { subjectFor } from '@signals/dev-oidc-provider'
import { sql } from '@signals/db'
import { build, signIn, startProvider, CLIENT_SECRET } from './helper.ts'

const provider = await startProvider(t)
const redis = createRedisClient(TEST_REDIS_URL)
await redis.connect()
t.teardown(() => redis.close())

const unique = () => randomBytes(5).toString('hex')
const sessionIdOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1] ?? '').replace(/\.[^.]*$/, '')

/** An auth app whose administrator e-mail is unique to the test (tests share one Redis). */
async function setup(t: Test, overrides: Record<string, string> = {}) {
  const adminEmail = `admin-${unique()}@example.com`
  const built = await build(t, { OIDC_ISSUER: provider.issuer, ADMIN_EMAIL: adminEmail, ...overrides })
  return { ...built, adminEmail }
}

t.test('the administrator e-mail lands on / approved, with a session and a status in Redis', async (t) => {
  const { app, adminEmail } = await setup(t)
  const { start, response, sessionCookie } = await signIn(app, adminEmail.toUpperCase(), { name: 'Ada Admin' })

  const authorization = new URL(start.headers.location as string)
  t.equal(authorization.origin, provider.issuer, 'redirects to the discovered provider')
  t.equal(authorization.searchParams.get('code_challenge_method'), 'S256', 'PKCE S256')
  t.ok(authorization.searchParams.get('state'), 'carries a state')
  t.ok(authorization.searchParams.get('nonce'), 'carries a nonce')
  t.equal(authorization.searchParams.get('redirect_uri'), 'http://localhost:3000/auth/google/callback')
  t.match(start.headers['set-cookie'], /signals\.login=[^;]+;.*HttpOnly/i, 'the state is bound to this browser by an HttpOnly cookie')

  t.equal(response.statusCode, 302)
  t.equal(response.headers.location, '/')
  t.ok(sessionCookie, 'a session cookie is set')
  const setCookie = String(response.headers['set-cookie'])
  t.match(setCookie, /signals\.sid=.*HttpOnly/i)
  t.match(setCookie, /SameSite=Lax/i)
  t.notMatch(setCookie, /Secure/i, 'no Secure flag for an http PUBLIC_URL')

  const sub = subjectFor(adminEmail)
  const { rows } = await sql<{ approved: boolean; role: string; name: string }>`SELECT * FROM users WHERE user_id = ${sub}`.execute(app.db)
  t.equal(rows.length, 1)
  t.equal(rows[0]?.approved, true)
  t.equal(rows[0]?.role, 'admin')
  t.equal(rows[0]?.name, 'Ada Admin')

  const sessionId = sessionIdOf(sessionCookie as string)
  const body = JSON.parse((await redis.get(`sess:${sessionId}`)) as string)
  t.equal(body.userId, sub, 'the session in Redis names the user')
  t.ok(await redis.sIsMember(userSessionsKey(sub), sessionId), 'the session is indexed under its user')
  t.same(JSON.parse((await redis.get(userStatusKey(sub))) as string), {
    email: adminEmail.toUpperCase(),
    role: 'admin',
    approved: true,
    banned: false,
  })
  const ttl = await redis.ttl(`sess:${sessionId}`)
  t.ok(ttl > 0 && ttl <= 120 * 60, `session expires with its idle time-out (ttl ${ttl}s)`)
})

t.test('another user lands on the pending page, not approved', async (t) => {
  const { app } = await setup(t)
  const email = `trader-${unique()}@example.com`
  const { response, sessionCookie } = await signIn(app, email)
  t.equal(response.statusCode, 302)
  t.equal(response.headers.location, '/pending-approval.html')
  t.ok(sessionCookie)
  const { rows } = await sql<{ approved: boolean; role: string }>`SELECT approved, role FROM users WHERE user_id = ${subjectFor(email)}`.execute(app.db)
  t.same(rows, [{ approved: false, role: 'trader' }])
})

t.test('a banned e-mail is refused with its reason; no row, no session', async (t) => {
  const { app } = await setup(t)
  const email = `banned-${unique()}@example.com`
  await sql`INSERT INTO banned_emails (email, reason) VALUES (${email}, ${'Chargeback <fraud>'})`.execute(app.db)

  const browser = await signIn(app, email.toUpperCase())
  t.equal(browser.response.statusCode, 403)
  t.match(browser.response.headers['content-type'], /text\/html/)
  t.match(browser.response.body, /Chargeback &lt;fraud&gt;/, 'the reason is shown, escaped')
  t.notOk(browser.sessionCookie, 'no session cookie')

  const api = await signIn(app, email, { accept: 'application/json' })
  t.equal(api.response.statusCode, 403)
  t.same(api.response.json(), { success: false, error: 'Account banned', reason: 'Chargeback <fraud>' })

  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE user_id = ${subjectFor(email)}`.execute(app.db)
  t.equal(rows[0]?.n, 0, 'no user row written')
  t.equal(await redis.exists(userSessionsKey(subjectFor(email))), 0, 'no session indexed')
  t.equal(await redis.exists(userStatusKey(subjectFor(email))), 0, 'no status written')
})

t.test('a ban holds against the account: a changed Google e-mail does not lift it (issue 15 point 7)', async (t) => {
  const { app } = await setup(t)
  const newEmail = `renamed-${unique()}@example.com`
  // The ban was recorded when the account (this sub) still used its old address.
  await sql`INSERT INTO banned_emails (email, reason, sub) VALUES (${`old-${unique()}@example.com`}, ${'Fraud'}, ${subjectFor(newEmail)})`.execute(app.db)
  const api = await signIn(app, newEmail, { accept: 'application/json' })
  t.equal(api.response.statusCode, 403)
  t.same(api.response.json(), { success: false, error: 'Account banned', reason: 'Fraud' })
  t.notOk(api.sessionCookie)
  const other = await signIn(app, `someone-${unique()}@example.com`, { accept: 'application/json' })
  t.equal(other.response.statusCode, 302, 'another account is not affected')
})

t.test('re-sign-in keeps an approval and refreshes the profile', async (t) => {
  const { app } = await setup(t)
  const email = `returning-${unique()}@example.com`
  const first = await signIn(app, email, { name: 'First Name' })
  t.equal(first.response.headers.location, '/pending-approval.html')
  await sql`UPDATE users SET approved = true, updated_at = now() - interval '1 day' WHERE user_id = ${subjectFor(email)}`.execute(app.db)

  const second = await signIn(app, email, { name: 'Second Name' })
  t.equal(second.response.headers.location, '/', 'still approved')
  const { rows } = await sql<{ approved: boolean; name: string; fresh: boolean }>`SELECT approved, name, updated_at > now() - interval '1 minute' AS fresh FROM users WHERE user_id = ${subjectFor(email)}`.execute(app.db)
  t.same(rows, [{ approved: true, name: 'Second Name', fresh: true }])
})

t.test('the session id changes at sign-in: a planted or earlier session is discarded', async (t) => {
  const { app } = await setup(t)
  const email = `fixation-${unique()}@example.com`
  const first = await signIn(app, email)
  const firstId = sessionIdOf(first.sessionCookie as string)

  const second = await signIn(app, email, { cookie: first.sessionCookie })
  const secondId = sessionIdOf(second.sessionCookie as string)
  t.not(secondId, firstId, 'a new id')
  t.equal(await redis.exists(`sess:${firstId}`), 0, 'the old session is gone from Redis')

  const planted = await signIn(app, email, { cookie: 'signals.sid=attacker-chosen-id.fake-signature' })
  t.not(sessionIdOf(planted.sessionCookie as string), 'attacker-chosen-id')
})

t.test('an unverified e-mail is refused with a readable reason and nothing written', async (t) => {
  const { app } = await setup(t)
  const email = `unverified-${unique()}@example.com`
  const { response, sessionCookie } = await signIn(app, email, { emailVerified: false })
  t.equal(response.statusCode, 302)
  t.equal(response.headers.location, '/login.html?error=unverified')
  t.notOk(sessionCookie)
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users WHERE user_id = ${subjectFor(email)}`.execute(app.db)
  t.equal(rows[0]?.n, 0)
})

t.test('a refused consent goes back to the login page', async (t) => {
  const { app } = await setup(t)
  const { response, sessionCookie } = await signIn(app, `denier-${unique()}@example.com`, { deny: true })
  t.equal(response.headers.location, '/login.html?error=denied')
  t.notOk(sessionCookie)
})

t.test('the callback needs the browser that started the sign-in, and works once', async (t) => {
  const { app } = await setup(t)
  const start = await app.inject({ method: 'GET', url: '/auth/google' })
  const loginCookie = start.cookies.find((c) => c.name === 'signals.login')
  const { signInThroughProvider } = await import('@signals/dev-oidc-provider/test-client')
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.location as string, email: `csrf-${unique()}@example.com` })
  const path = new URL(callbackUrl)

  const otherBrowser = await app.inject({ method: 'GET', url: path.pathname + path.search })
  t.equal(otherBrowser.headers.location, '/login.html?error=expired', 'a callback without the login cookie is refused')
  t.notOk(otherBrowser.cookies.find((c) => c.name === 'signals.sid'))

  const browserCookie = { cookie: `signals.login=${loginCookie?.value}` }
  const first = await app.inject({ method: 'GET', url: path.pathname + path.search, headers: browserCookie })
  t.equal(first.headers.location, '/pending-approval.html', 'the browser that started it finishes it')
  const replay = await app.inject({ method: 'GET', url: path.pathname + path.search, headers: browserCookie })
  t.equal(replay.headers.location, '/login.html?error=expired', 'a replayed callback finds no transaction (single use)')
  t.notOk(replay.cookies.find((c) => c.name === 'signals.sid'))

  const forged = await app.inject({ method: 'GET', url: '/auth/google/callback?code=abc&state=forged', headers: { cookie: 'signals.login=' + 'A'.repeat(43) } })
  t.equal(forged.headers.location, '/login.html?error=expired')
})

t.test('a state that does not match is refused at the provider step', async (t) => {
  const { app } = await setup(t)
  const start = await app.inject({ method: 'GET', url: '/auth/google' })
  const loginCookie = start.cookies.find((c) => c.name === 'signals.login')
  const { signInThroughProvider } = await import('@signals/dev-oidc-provider/test-client')
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.location as string, email: `state-${unique()}@example.com` })
  const url = new URL(callbackUrl)
  url.searchParams.set('state', 'tampered')
  const response = await app.inject({ method: 'GET', url: url.pathname + url.search, headers: { cookie: `signals.login=${loginCookie?.value}` } })
  t.equal(response.headers.location, '/login.html?error=provider')
  t.notOk(response.cookies.find((c) => c.name === 'signals.sid'))
})

t.test('returnTo: a same-site path is honoured, another origin never', async (t) => {
  const { app, adminEmail } = await setup(t)
  const good = await signIn(app, adminEmail, { returnTo: '/index.html?tab=risk#top' })
  t.equal(good.response.headers.location, '/index.html?tab=risk#top')
  for (const evil of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/\t/evil.example', 'javascript:alert(1)']) {
    const bad = await signIn(app, adminEmail, { returnTo: evil })
    t.equal(bad.response.headers.location, '/', `ignores ${JSON.stringify(evil)}`)
  }
})

t.test('logout destroys the session in Redis, clears the cookie and goes to the login page', async (t) => {
  const { app } = await setup(t)
  const email = `leaver-${unique()}@example.com`
  const { sessionCookie } = await signIn(app, email)
  const sessionId = sessionIdOf(sessionCookie as string)
  t.equal(await redis.exists(`sess:${sessionId}`), 1)

  const me = await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: sessionCookie } })
  t.equal(me.statusCode, 200)
  t.match(me.json(), { success: true, user: { email, approved: false, role: 'trader' } })

  const response = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: sessionCookie, origin: 'http://localhost:3000' } })
  t.equal(response.statusCode, 303)
  t.equal(response.headers.location, '/login.html')
  t.match(String(response.headers['set-cookie']), /signals\.sid=;.*Expires=Thu, 01 Jan 1970/i, 'cookie cleared')
  t.equal(await redis.exists(`sess:${sessionId}`), 0, 'no session left in Redis')
  t.notOk(await redis.sIsMember(userSessionsKey(subjectFor(email)), sessionId), 'unindexed')

  const after = await app.inject({ method: 'GET', url: '/auth/me', headers: { cookie: sessionCookie } })
  t.equal(after.statusCode, 401)
  t.same(after.json(), { success: false, error: 'Authentication required' })

  const anonymous = await app.inject({ method: 'POST', url: '/auth/logout' })
  t.equal(anonymous.headers.location, '/login.html', 'logging out without a session is harmless')
})

t.test('logout is not a cross-site GET: a link or image on another site cannot sign anyone out (issue 15 point 7)', async (t) => {
  const { app } = await setup(t)
  const { sessionCookie } = await signIn(app, `stayer-${unique()}@example.com`)
  const sessionId = sessionIdOf(sessionCookie as string)
  const attempts: [string, Record<string, string>][] = [
    ['GET', { 'sec-fetch-site': 'cross-site' }],
    ['GET', { 'sec-fetch-site': 'same-site' }],
    ['GET', { referer: 'https://evil.example/page' }],
    ['POST', { origin: 'https://evil.example' }],
    ['POST', { 'sec-fetch-site': 'cross-site' }],
  ]
  for (const [method, headers] of attempts) {
    const response = await app.inject({ method: method as 'GET', url: '/auth/logout', headers: { cookie: sessionCookie, ...headers } })
    t.equal(response.statusCode, 403, `${method} ${JSON.stringify(headers)} refused`)
    t.match(response.json(), { success: false, error: /sign out/i })
    t.equal(await redis.exists(`sess:${sessionId}`), 1, 'the session lives on')
  }
  const sameOrigin = await app.inject({ method: 'GET', url: '/auth/logout', headers: { cookie: sessionCookie, 'sec-fetch-site': 'same-origin' } })
  t.equal(sameOrigin.statusCode, 303, 'a GET our own page sends (Sec-Fetch-Site: same-origin) signs out')
  t.equal(await redis.exists(`sess:${sessionId}`), 0)

  // What the pages' sign-out form sends: an empty url-encoded body.
  const again = await signIn(app, `form-${unique()}@example.com`)
  const form = await app.inject({
    method: 'POST',
    url: '/auth/logout',
    headers: { cookie: again.sessionCookie as string, origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  })
  t.equal(form.statusCode, 303, 'the sign-out form is accepted')
  t.equal(await redis.exists(`sess:${sessionIdOf(again.sessionCookie as string)}`), 0)
})

t.test('GET /auth/logout typed in the address bar, from a bookmark or by a client without Sec-Fetch-Site signs out (issue 25)', async (t) => {
  const { app } = await setup(t)
  const ways: [string, Record<string, string>][] = [
    ['address bar or bookmark', { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-user': '?1' }],
    ['a client that sends no Sec-Fetch-Site', {}],
    ['a link on our own page (older browser: Referer only)', { referer: 'http://localhost:3000/index.html' }],
  ]
  for (const [how, headers] of ways) {
    const { sessionCookie } = await signIn(app, `typist-${unique()}@example.com`)
    const response = await app.inject({ method: 'GET', url: '/auth/logout', headers: { cookie: sessionCookie, ...headers } })
    t.equal(response.statusCode, 303, `${how}: signed out`)
    t.equal(response.headers.location, '/login.html')
    t.equal(await redis.exists(`sess:${sessionIdOf(sessionCookie as string)}`), 0, `${how}: no session left`)
  }
})

t.test('no secret reaches the logs during a sign-in', async (t) => {
  const lines: string[] = []
  const loggerStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  const adminEmail = `admin-${unique()}@example.com`
  const { app } = await build(t, { OIDC_ISSUER: provider.issuer, ADMIN_EMAIL: adminEmail, LOG_LEVEL: 'debug' }, { loggerStream })
  const { response, sessionCookie, callbackUrl } = await signIn(app, adminEmail)
  t.equal(response.statusCode, 302)
  const log = lines.join('')
  t.match(log, /signed in/, 'the sign-in is logged')
  const code = new URL(callbackUrl).searchParams.get('code') as string
  for (const secret of [CLIENT_SECRET, code, sessionIdOf(sessionCookie as string)]) {
    t.notOk(log.includes(secret), 'a secret is absent from the logs')
  }
})

t.test('a provider that starts after auth is found on the next sign-in; meanwhile a readable error', async (t) => {
  const { freePort } = await import('@signals/test-support')
  const { startDevOidcProvider } = await import('@signals/dev-oidc-provider')
  const { CLIENT_ID, PUBLIC_URL } = await import('./helper.ts')
  const port = await freePort()
  const { app } = await build(t, { OIDC_ISSUER: `http://127.0.0.1:${port}` })
  const early = await app.inject({ method: 'GET', url: '/auth/google' })
  t.equal(early.statusCode, 302)
  t.equal(early.headers.location, '/login.html?error=unavailable', 'no provider yet: back to the login page, auth still up')
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200)

  const late = await startDevOidcProvider({ port, clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${PUBLIC_URL}/auth/google/callback`] }] })
  t.teardown(() => late.close())
  const email = `late-${unique()}@example.com`
  const { response } = await signIn(app, email)
  t.equal(response.headers.location, '/pending-approval.html', 'discovered and signed in once the provider is up')
})
