import t, { type Test } from 'tap'
import { Writable } from 'node:stream'
import Type from 'typebox'
import {
  IDENTITY_HEADER,
  badRequest,
  createServiceApp,
  internalIdentityPlugin,
  openapiPlugin,
  redactUrl,
  serviceUnavailable,
  signIdentity,
  verifyIdentity,
} from '../src/index.ts'

const SECRET = 'test-internal-secret-0123456789abcdef'

function captureLogs() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, stream }
}

/** What ingest and the gateway add to the shared redaction (a webhook secret may travel in the path). */
const WEBHOOK_REDACTION = { secretPathPrefixes: ['/webhook/alert/'] }

async function app(t: Test, loggerStream?: NodeJS.WritableStream) {
  const instance = await createServiceApp({ service: 'kit-test', logLevel: loggerStream ? 'info' : 'silent', loggerStream, logRedaction: WEBHOOK_REDACTION })
  t.teardown(() => instance.close())
  return instance
}

t.test('a start step (a plugin, an onReady hook) may take a minute, not Fastify\'s 10 s: a slow NATS or Postgres at start is waited out', async (t) => {
  const instance = await app(t)
  t.equal(instance.initialConfig.pluginTimeout, 60_000)
})

t.test('the error handler: 4xx messages reach the caller, 5xx internals never do', async (t) => {
  const { lines, stream } = captureLogs()
  const instance = await app(t, stream)
  instance.get('/bad', async () => {
    throw badRequest('symbol is required')
  })
  instance.get('/down', async () => {
    throw serviceUnavailable()
  })
  instance.get('/crash', async () => {
    throw new Error('relation "secret_table" does not exist at 10.0.0.5')
  })
  instance.get('/refused', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
  })
  instance.post('/typed', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }))

  t.same((await instance.inject('/bad')).json(), { success: false, error: 'symbol is required' })
  const down = await instance.inject('/down')
  t.equal(down.statusCode, 503)
  const crash = await instance.inject('/crash')
  t.equal(crash.statusCode, 500)
  t.same(crash.json(), { success: false, error: 'Internal error' })
  const refused = await instance.inject('/refused')
  t.equal(refused.statusCode, 503, 'a dependency that is down is a 503 "try again"')
  t.notMatch(refused.body, /5432/)
  const invalid = await instance.inject({ method: 'POST', url: '/typed', payload: { n: 'x' } })
  t.equal(invalid.statusCode, 400)
  t.match(invalid.json(), { success: false, error: /Invalid body: .*n/ })
  const malformed = await instance.inject({ method: 'POST', url: '/typed', payload: '{', headers: { 'content-type': 'application/json' } })
  t.equal(malformed.statusCode, 400)
  const missing = await instance.inject('/nowhere')
  t.same(missing.json(), { success: false, error: 'Route GET /nowhere not found' })
  t.ok(lines.some((line) => line.includes('secret_table')), 'the internal error is logged for operators')
})

t.test('the internal identity header: only a valid, unexpired signature passes', async (t) => {
  const instance = await app(t)
  await instance.register(internalIdentityPlugin, { secret: SECRET, audience: 'kit-test' })
  instance.get('/api/me', async (request) => request.identity)
  const identity = { userId: 'u1', email: 'a@x.com', role: 'trader' as const, approved: true }
  const me = { audience: 'kit-test', method: 'GET', path: '/api/me' }

  const ok = await instance.inject({ url: '/api/me', headers: { [IDENTITY_HEADER]: signIdentity(identity, SECRET, me) } })
  t.same(ok.json(), identity)
  const none = await instance.inject({ url: '/api/me' })
  t.equal(none.statusCode, 401)
  t.same(none.json(), { success: false, error: 'Authentication required' })
  const forged = await instance.inject({ url: '/api/me', headers: { [IDENTITY_HEADER]: signIdentity({ ...identity, role: 'admin' }, 'another-secret-of-enough-length!!', me) } })
  t.equal(forged.statusCode, 401, 'signed with another key')
  const [payload, mac] = signIdentity(identity, SECRET, me).split('.')
  const altered = Buffer.from(JSON.stringify({ ...identity, ...me, role: 'admin', exp: 9999999999 })).toString('base64url')
  t.equal((await instance.inject({ url: '/api/me', headers: { [IDENTITY_HEADER]: `${altered}.${mac}` } })).statusCode, 401, 'payload altered')
  t.ok(payload)
  t.equal(verifyIdentity(signIdentity(identity, SECRET, me, -1), SECRET, me), null, 'expired')
  t.equal(verifyIdentity('garbage', SECRET, me), null)
  t.equal((await instance.inject('/health')).statusCode, 200, 'health needs no identity')
  const pending = await instance.inject({ url: '/api/me', headers: { [IDENTITY_HEADER]: signIdentity({ ...identity, approved: false }, SECRET, me) } })
  t.equal(pending.statusCode, 403, 'an unapproved identity is refused')
  t.same(pending.json(), { success: false, error: 'Account pending approval' })
})

t.test('a captured identity header works for its own service, method and path only (issue 15 point 7)', async (t) => {
  const instance = await app(t)
  await instance.register(internalIdentityPlugin, { secret: SECRET, audience: 'settings' })
  instance.get('/api/me', async (request) => request.identity)
  instance.delete('/api/me', async (request) => request.identity)
  instance.get('/api/other', async (request) => request.identity)
  const identity = { userId: 'u1', email: 'a@x.com', role: 'trader' as const, approved: true }
  const captured = signIdentity(identity, SECRET, { audience: 'settings', method: 'GET', path: '/api/me' })
  const send = (method: 'GET' | 'DELETE', url: string, header = captured) => instance.inject({ method, url, headers: { [IDENTITY_HEADER]: header } })
  t.equal((await send('GET', '/api/me')).statusCode, 200, 'where it was issued for')
  t.equal((await send('GET', '/api/me?x=1')).statusCode, 200, 'the query is not part of the binding')
  t.equal((await send('DELETE', '/api/me')).statusCode, 401, 'another method')
  t.equal((await send('GET', '/api/other')).statusCode, 401, 'another path')
  const forAdmin = signIdentity(identity, SECRET, { audience: 'admin', method: 'GET', path: '/api/me' })
  t.equal((await send('GET', '/api/me', forAdmin)).statusCode, 401, 'another service')
  const encoded = signIdentity(identity, SECRET, { audience: 'settings', method: 'GET', path: '/%61pi/me' })
  t.equal((await send('GET', '/api/me', encoded)).statusCode, 200, 'the path is compared decoded, as the router matches it')
  t.notOk(verifyIdentity(captured, SECRET, { audience: 'settings', method: 'get', path: '/api/me/' }), 'exact path')
})

t.test('secrets stay out of logged URLs and objects', async (t) => {
  t.equal(redactUrl('/webhook/alert?secret=abc&x=1', WEBHOOK_REDACTION.secretPathPrefixes), '/webhook/alert?secret=[redacted]&x=[redacted]')
  t.equal(redactUrl('/webhook/alert/s3cr3t', WEBHOOK_REDACTION.secretPathPrefixes), '/webhook/alert/[redacted]')
  t.equal(redactUrl('/auth/google/callback?code=c&state=s', WEBHOOK_REDACTION.secretPathPrefixes), '/auth/google/callback?code=[redacted]&state=[redacted]')
  const { lines, stream } = captureLogs()
  const instance = await app(t, stream)
  instance.post('/webhook/alert/:secret', async (request) => {
    request.log.info({ body: { password: 'hunter2', secret: 'shh' } }, 'got it')
    return { ok: true }
  })
  await instance.inject({ method: 'POST', url: '/webhook/alert/topsecretvalue?secret=querysecret', payload: {}, headers: { cookie: 'signals.sid=cookievalue' } })
  const all = lines.join('\n')
  for (const secret of ['topsecretvalue', 'querysecret', 'hunter2', 'shh', 'cookievalue']) t.notOk(all.includes(secret), `${secret} is not logged`)
})

t.test('GET /openapi.json documents the /api routes only', async (t) => {
  const instance = await app(t)
  await instance.register(openapiPlugin, { title: 'Kit test' })
  instance.get('/api/things', { schema: { response: { 200: Type.Object({ n: Type.Integer() }) } } }, async () => ({ n: 1 }))
  instance.get('/internal', async () => ({}))
  const document = (await instance.inject('/openapi.json')).json()
  t.equal(document.info.title, 'Kit test')
  t.ok(document.paths['/api/things'])
  t.notOk(document.paths['/internal'])
  t.notOk(document.paths['/health'])
})

t.test('a service may answer a dependency failure with its own status and message', async (t) => {
  const instance = await createServiceApp({
    service: 'kit-test',
    logLevel: 'silent',
    errors: { dependencyFailure: { statusCode: 500, message: 'Settings could not be saved, please try again' } },
  })
  t.teardown(() => instance.close())
  instance.get('/refused', async () => {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
  })
  instance.get('/crash', async () => {
    throw new Error('boom at 10.1.2.3')
  })
  const refused = await instance.inject('/refused')
  t.equal(refused.statusCode, 500)
  t.same(refused.json(), { success: false, error: 'Settings could not be saved, please try again' })
  t.same((await instance.inject('/crash')).json(), { success: false, error: 'Internal error' })
})

t.test('request loggers carry the request id, honour levels, and are only built when they write', async (t) => {
  const { lines, stream } = captureLogs()
  const instance = await createServiceApp({ service: 'kit-test', logLevel: 'warn', loggerStream: stream })
  t.teardown(() => instance.close())
  let childrenBuilt = 0
  const child = instance.log.child.bind(instance.log)
  instance.log.child = ((...args: Parameters<typeof child>) => {
    childrenBuilt += 1
    return child(...args)
  }) as typeof child
  instance.get('/quiet', async (request) => {
    request.log.info('not at this level')
    return { ok: true }
  })
  instance.get('/loud', async (request) => {
    request.log.warn({ token: 'tok-123' }, 'something to see')
    request.log.error('and worse')
    return { ok: true }
  })
  instance.get('/chatty', { logLevel: 'debug' }, async (request) => {
    request.log.debug('route-level detail')
    return { ok: true }
  })

  await instance.inject({ method: 'GET', url: '/quiet' })
  t.equal(childrenBuilt, 0, 'a request that writes nothing builds no child logger')
  t.same(lines, [], 'info is below the configured level')

  await instance.inject({ method: 'GET', url: '/loud' })
  t.equal(childrenBuilt, 1, 'the child is built once, at the first line written')
  const written = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  t.match(written, [
    { level: 40, msg: 'something to see', reqId: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, service: 'kit-test', token: '[redacted]' },
    { level: 50, msg: 'and worse', reqId: written[0]?.reqId },
  ], 'lines carry the request id, and secrets stay redacted')

  lines.length = 0
  await instance.inject({ method: 'GET', url: '/chatty' })
  t.match(lines.map((line) => JSON.parse(line) as unknown), [{ level: 30, msg: 'incoming request' }, { level: 20, msg: 'route-level detail' }, { level: 30, msg: 'request completed' }], "a route's own log level applies")
})

t.test('the identity check is keyed on the matched route: an encoded /api path is refused, never a 500', async (t) => {
  const instance = await app(t)
  await instance.register(internalIdentityPlugin, { secret: SECRET, audience: 'kit-test' })
  instance.get('/api/me', async (request) => ({ userId: request.identity.userId }))
  for (const url of ['/%61pi/me', '/api/%6de', '/%61%70%69/me']) {
    const response = await instance.inject({ url })
    t.equal(response.statusCode, 401, url)
    t.same(response.json(), { success: false, error: 'Authentication required' })
  }
})

t.test('no query value reaches a request log line, whatever its name; an encoded webhook path neither (issue 15 point 5)', async (t) => {
  const secret = 'correct-horse-battery-staple'
  const message = encodeURIComponent(JSON.stringify({ action: 'buy', passphrase: secret }))
  t.notMatch(redactUrl(`/webhook/alert?message=${message}`, WEBHOOK_REDACTION.secretPathPrefixes), /horse/)
  t.notMatch(redactUrl(`/webhook/alert?m=${secret}&message=${secret}`, WEBHOOK_REDACTION.secretPathPrefixes), /horse/)
  t.notMatch(redactUrl(`/%77ebhook/alert/${secret}`, WEBHOOK_REDACTION.secretPathPrefixes), /horse/, 'the router decodes the path, so redaction does too')
  t.notMatch(redactUrl(`/webhook/alert/${encodeURIComponent(secret)}`, WEBHOOK_REDACTION.secretPathPrefixes), /horse/)
  t.equal(redactUrl('/api/trades?limit=5', WEBHOOK_REDACTION.secretPathPrefixes), '/api/trades?limit=[redacted]', 'names stay, values go')
  const { lines, stream } = captureLogs()
  const instance = await app(t, stream)
  instance.post('/webhook/alert', async () => ({ ok: true }))
  await instance.inject({ method: 'POST', url: `/webhook/alert?message=${message}&note=${secret}`, payload: {} })
  t.ok(lines.length >= 2, 'the request was logged')
  t.notMatch(lines.join(''), /horse/)
})

// Issue 21 item 7: connection settings carry credentials in production (a Redis ACL user, a NATS user).
t.test('connection settings and NATS credentials are redacted wherever a line carries them', async (t) => {
  const { lines, stream } = captureLogs()
  const instance = await app(t, stream)
  const config = {
    DATABASE_URL: 'postgres://signals:pg-pass-1@db:5432/signals',
    REDIS_URL: 'redis://signals:redis-pass-2@redis:6379',
    NATS_URL: 'nats://signals:nats-pass-3@nats-0:4222',
    NATS_PASSWORD: 'nats-pass-4',
    NATS_TOKEN: 'nats-token-5',
  }
  instance.log.info({ config, credentials: { user: 'signals', pass: 'nats-pass-6' } }, 'starting')
  const line = JSON.parse(lines.find((entry) => entry.includes('starting')) ?? '{}') as { config?: Record<string, string> }
  t.same(line.config, Object.fromEntries(Object.keys(config).map((name) => [name, '[redacted]'])), 'every connection setting is [redacted]')
  t.notMatch(lines.join(''), /pass-\d|token-5/, 'no password or token anywhere')
})
