import t from 'tap'
import fc from 'fast-check'
import { signIn, startPlatform, unique, type Echo } from './helper.ts'

// Issue 15 point 2: the router matches the decoded path, so every check must be keyed on the matched
// route, never on the raw URL.
const platform = await startPlatform(t)
const { gateway } = platform
const admin = await signIn(gateway, platform.adminEmail)
const pending = await signIn(gateway, `pending-${unique()}@example.com`)

t.test('an encoded /api path meets the same checks as the plain one', async (t) => {
  for (const url of ['/%61pi/trading-settings', '/api/%74rading-settings', '/%61%70%69/trading-settings']) {
    const crossOrigin = await gateway.inject({ method: 'PUT', url, headers: { cookie: admin.sessionCookie, origin: 'https://evil.example', 'content-type': 'application/json' }, payload: '{}' })
    t.equal(crossOrigin.statusCode, 403, `${url}: cross-origin write refused by the gateway`)
    t.same(crossOrigin.json(), { success: false, error: 'Cross-origin request refused' })
    const pendingCall = await gateway.inject({ method: 'GET', url, headers: { cookie: pending.sessionCookie } })
    t.equal(pendingCall.statusCode, 403, `${url}: a pending user is refused by the gateway`)
    t.same(pendingCall.json(), { success: false, error: 'Account pending approval' })
    const anonymous = await gateway.inject({ method: 'GET', url })
    t.equal(anonymous.statusCode, 401)
    const approved = await gateway.inject({ method: 'GET', url, headers: { cookie: admin.sessionCookie } })
    t.equal(approved.statusCode, 200, `${url}: an approved call still goes through`)
    t.equal(approved.json<Echo>().service, 'settings')
  }
})

t.test('a service reached directly with an encoded /api path refuses without the identity header', async (t) => {
  const response = await fetch(`${platform.upstreams.settings}/%61pi/live-trading-status`)
  t.equal(response.status, 401)
})

t.test('no path, however encoded, gets a 5xx from the gateway', async (t) => {
  const segment = fc.constantFrom('api', '%61pi', 'trading-settings', 'admin', 'users', '%2e', '%2e%2e', '..', '.', '%2f', '%5c', '%00', '%', '%zz', '%ff', 'index.html', 'login.html', 'a%20b', '', '~')
  const paths = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join('/')}`)
  await fc.assert(
    fc.asyncProperty(paths, fc.constantFrom('GET', 'POST', 'DELETE'), fc.boolean(), async (url, method, signedIn) => {
      const response = await gateway.inject({ method: method as 'GET', url, headers: signedIn ? { cookie: admin.sessionCookie } : {} })
      return response.statusCode < 500
    }),
    { numRuns: 300 },
  )
  t.pass('no 5xx')
})
