import t from 'tap'
import { alertIdOf } from '../../src/alert-id.ts'
import { build } from '../helper.ts'

const SECRET = 'correct-horse-battery-staple'
const alert = { action: 'buy', symbol: 'NQ1!', user_id: 'u1' }

t.test('with WEBHOOK_SECRET set, the secret is required in the path, the query or the body', async (t) => {
  const { app, watcher, logLines } = await build(t, { WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'info' })
  const accepted = [
    { url: `/webhook/alert/${SECRET}`, payload: { ...alert, id: 's-path' } },
    { url: `/webhook/alert?secret=${SECRET}`, payload: { ...alert, id: 's-query' } },
    { url: '/webhook/alert', payload: { ...alert, id: 's-body', secret: SECRET } },
    { url: '/webhook/alert', payload: { ...alert, id: 's-passphrase', passphrase: SECRET } },
    { url: '/webhook/alert', payload: `Action: Buy\nUser ID: u1\nid: s-label\nPassphrase: ${SECRET}` },
    { url: '/webhook/alert', payload: { message: JSON.stringify({ ...alert, id: 's-message', passphrase: SECRET }) } },
  ]
  for (const request of accepted) {
    const response = await app.inject({ method: 'POST', ...request })
    t.equal(response.statusCode, 200, request.url)
  }
  const refused = [
    { url: '/webhook/alert', payload: alert },
    { url: '/webhook/alert/wrong-secret-value', payload: alert },
    { url: '/webhook/alert?secret=wrong', payload: alert },
    { url: '/webhook/alert', payload: { ...alert, secret: `${SECRET}x` } },
    { url: `/webhook/alert/${SECRET.slice(0, -1)}`, payload: alert },
  ]
  for (const request of refused) {
    const response = await app.inject({ method: 'POST', ...request })
    t.equal(response.statusCode, 401, request.url)
    t.same(response.json(), { success: false, error: 'Webhook secret missing or wrong' })
  }
  const messages = await watcher.alertMessages(accepted.length)
  const entries = await watcher.intakeEntries(accepted.length + refused.length)
  t.equal(entries.filter((entry) => entry.outcome === 'unauthorized').length, refused.length)
  t.notMatch(JSON.stringify(messages), SECRET, 'published alerts never carry the secret')
  t.notMatch(JSON.stringify(entries), SECRET, 'intake-log entries never carry the secret')
  t.notMatch(logLines.join(''), SECRET, 'log lines never carry the secret')
  t.match(messages.find(({ body }) => body.alertId === alertIdOf('s-body', '', 'u1'))?.body.raw, { secret: '[redacted]' })
})

t.test('without WEBHOOK_SECRET the webhook is open and /webhook/alert/<anything> is not a route', async (t) => {
  const { app } = await build(t)
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert', payload: alert })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert/something', payload: alert })).statusCode, 404)
})

t.test('the source allow-list refuses other addresses and believes X-Forwarded-For only from the trusted proxy', async (t) => {
  const { app, watcher } = await build(t, { INGEST_ALLOWED_SOURCES: '52.89.214.238, 34.212.75.30, 10.1.0.0/16', INGEST_TRUSTED_PROXY: '127.0.0.1' })
  const viaProxy = (forwardedFor: string, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress, headers: { 'x-forwarded-for': forwardedFor }, payload: { ...alert, id: `a-${forwardedFor}-${remoteAddress}` } })
  t.equal((await viaProxy('52.89.214.238')).statusCode, 200, 'a TradingView address through the trusted proxy')
  t.equal((await viaProxy('10.1.20.30')).statusCode, 200, 'an address inside an allowed CIDR')
  const outsider = await viaProxy('203.0.113.9')
  t.equal(outsider.statusCode, 403)
  t.same(outsider.json(), { success: false, error: 'Source address not allowed to post alerts' })
  t.equal((await viaProxy('52.89.214.238', '198.51.100.7')).statusCode, 403, 'X-Forwarded-For from an untrusted peer is ignored')
  t.equal((await viaProxy('52.89.214.238', '::ffff:127.0.0.1')).statusCode, 200, 'an IPv4-mapped proxy address is the proxy')
  const entries = await watcher.intakeEntries(5)
  t.match(entries.find((entry) => entry.remoteAddress === '203.0.113.9'), { outcome: 'forbidden', statusCode: 403, userId: 'u1' }, 'refused before its payload was read, it still names its user (their Webhooks page shows it)')
})

t.test('the per-address rate limit answers 429 and logs it; other addresses are unaffected', async (t) => {
  const { app, watcher } = await build(t, { INGEST_RATE_LIMIT_PER_MINUTE: '3' })
  const send = (remoteAddress: string, n: number) =>
    app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress, payload: { ...alert, id: `r-${remoteAddress}-${n}` } })
  for (let n = 0; n < 3; n++) t.equal((await send('192.0.2.1', n)).statusCode, 200)
  const limited = await send('192.0.2.1', 3)
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { success: false, error: /Too many alerts from this address \(at most 3 a minute\); retry in \d+ s/ })
  t.match(limited.headers['retry-after'], /^\d+$/, 'Retry-After says when to come back')
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert?secret=x', remoteAddress: '192.0.2.1', payload: alert })).statusCode, 429, 'the budget is per address, whatever the URL')
  t.equal((await send('192.0.2.2', 0)).statusCode, 200)
  const entries = await watcher.intakeEntries(5)
  t.match(entries.find((entry) => entry.statusCode === 429), { outcome: 'rate_limited', remoteAddress: '192.0.2.1', rawBody: /r-192\.0\.2\.1-3/, userId: 'u1' })
})

t.test("a rate-limited webhook names the user it was sent for, in JSON, a query or label lines, so that trader sees it refused (issue 22 item 7)", async (t) => {
  const { app, watcher } = await build(t, { INGEST_RATE_LIMIT_PER_MINUTE: '1' })
  const remoteAddress = '192.0.2.40'
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress, payload: { ...alert, id: 'first' } })).statusCode, 200)
  const text = 'Action: buy\nSymbol: NQ1!\nUser ID: trader-text'
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert', remoteAddress, headers: { 'content-type': 'text/plain' }, payload: text })).statusCode, 429)
  t.equal((await app.inject({ method: 'POST', url: '/webhook/alert?user_id=trader-query', remoteAddress, payload: { action: 'buy', symbol: 'NQ1!' } })).statusCode, 429)
  const limited = (await watcher.intakeEntries(3)).filter((entry) => entry.outcome === 'rate_limited')
  t.same(limited.map((entry) => entry.userId).sort(), ['trader-query', 'trader-text'])
})

t.test('a refusal that quotes what was sent keeps the secret out of the intake log', async (t) => {
  const { app, watcher } = await build(t, { WEBHOOK_SECRET: SECRET })
  const response = await app.inject({ method: 'POST', url: `/webhook/alert/${SECRET}`, payload: { action: SECRET, user_id: 'u1' } })
  t.equal(response.statusCode, 400)
  const [entry] = await watcher.intakeEntries(1)
  t.match(entry, { outcome: 'invalid', reason: /^action "\[redacted\]" is not understood/ })
  t.notMatch(JSON.stringify(entry), SECRET)
})

t.test('anything named like a secret is redacted from the alert and the intake log whatever the configuration (issue 22 item 6)', async (t) => {
  const { app, watcher } = await build(t)
  const payload = {
    ...alert,
    secret: 'open-webhook-secret',
    Token: 'pmt-token-value',
    multiple_accounts: [{ token: 'nested-token-value', account_id: 'A1', API_KEY: 'nested-api-key' }],
    broker: { password: 'broker-password', Passphrase: 'broker-passphrase', privateKey: 'broker-private-key' },
  }
  const response = await app.inject({ method: 'POST', url: '/webhook/alert', payload })
  t.equal(response.statusCode, 200)
  const [message] = await watcher.alertMessages(1)
  t.same(message?.body.raw, {
    ...alert,
    secret: '[redacted]',
    Token: '[redacted]',
    multiple_accounts: [{ token: '[redacted]', account_id: 'A1', API_KEY: '[redacted]' }],
    broker: { password: '[redacted]', Passphrase: '[redacted]', privateKey: '[redacted]' },
  })
  const [entry] = await watcher.intakeEntries(1)
  for (const value of ['open-webhook-secret', 'pmt-token-value', 'nested-token-value', 'nested-api-key', 'broker-password', 'broker-passphrase', 'broker-private-key']) {
    t.notMatch(JSON.stringify(message), value, `the alert does not carry ${value}`)
    t.notMatch(entry?.rawBody ?? '', value, `the intake log does not carry ${value}`)
  }
  t.match(entry?.rawBody, /"account_id":"A1"/, 'the rest of the body is kept')

  const text = await app.inject({ method: 'POST', url: '/webhook/alert', headers: { 'content-type': 'text/plain' }, payload: 'Action: Buy\nSymbol: NQ1!\nUser ID: u9\nToken: label-token-value\napi_key=query-style-key' })
  t.equal(text.statusCode, 200)
  const [, textEntry] = await watcher.intakeEntries(2)
  t.notMatch(textEntry?.rawBody ?? '', /label-token-value|query-style-key/, 'label lines and key=value text are redacted too')
  t.match(textEntry?.rawBody, /Symbol: NQ1!/)
})

t.test('a refused webhook is logged as metadata with a truncated body; the entry says who it named and whether it passed the secret (issue 22 item 7)', async (t) => {
  const { app, watcher } = await build(t, { WEBHOOK_SECRET: SECRET, INGEST_REFUSED_BODY_BYTES: '512', INGEST_INTAKE_STREAM_MAX_BYTES: String(8 * 1024 * 1024) })
  t.equal((await app.bus.jsm.streams.info(app.bus.stream('INTAKE'))).config.max_bytes, 8 * 1024 * 1024, 'the INTAKE stream has the configured byte bound')
  const padding = 'é'.repeat(2_000)
  const refused = await app.inject({ method: 'POST', url: '/webhook/alert', payload: { ...alert, user_id: 'victim', note: padding } })
  t.equal(refused.statusCode, 401)
  const invalid = await app.inject({ method: 'POST', url: `/webhook/alert?secret=${SECRET}`, payload: { action: 'dance', symbol: 'NQ1!', user_id: 'u2' } })
  t.equal(invalid.statusCode, 400)
  const accepted = await app.inject({ method: 'POST', url: `/webhook/alert?secret=${SECRET}`, payload: { ...alert, note: padding } })
  t.equal(accepted.statusCode, 200)
  const entries = await watcher.intakeEntries(3)
  const unauthorized = entries.find((entry) => entry.outcome === 'unauthorized')
  t.match(unauthorized, { userId: 'victim', authenticated: false, bodyTruncated: true })
  t.ok(Buffer.byteLength(unauthorized?.rawBody ?? '') <= 512, 'the refused body is cut to INGEST_REFUSED_BODY_BYTES')
  t.match(unauthorized?.rawBody, /^\{"action":"buy"/, 'its start is kept')
  t.notMatch(unauthorized?.rawBody, /\ufffd/, 'cut on a character boundary')
  t.match(entries.find((entry) => entry.outcome === 'invalid'), { userId: 'u2', authenticated: true, bodyTruncated: false })
  const kept = entries.find((entry) => entry.outcome === 'accepted')
  t.match(kept, { userId: 'u1', authenticated: true, bodyTruncated: false })
  t.ok((kept?.rawBody.length ?? 0) > 2_000, 'an accepted body is kept whole')
})
