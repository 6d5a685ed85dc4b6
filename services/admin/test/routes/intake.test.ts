import t from 'tap'
import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import type { AddressInfo } from 'node:net'
import { build, as, unique } from '../helper.ts'

/** A real HTTP server in ingest's place that records what reached /webhook/alert and answers like ingest. */
async function startIngestRecorder() {
  const received: { url: string; headers: Record<string, unknown>; body: string }[] = []
  const server = Fastify()
  server.removeAllContentTypeParsers()
  server.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  server.post('/webhook/alert', async (request, reply) => {
    received.push({ url: request.url, headers: request.headers, body: typeof request.body === 'string' ? request.body : '' })
    return reply.code(202).send({ success: true, alertId: 'replayed', kind: 'entry', duplicate: false })
  })
  await server.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => server.close())
  return { received, url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}` }
}

const ingest = await startIngestRecorder()
const SECRET = 'replay-test-webhook-secret-0123456789'
const { app, config, adminEmail } = await build(t, { INGEST_URL: ingest.url, WEBHOOK_SECRET: SECRET })
const adminId = `admin-${unique()}`
const asAdmin = as(config, { userId: adminId, email: adminEmail, role: 'admin' })
const asTrader = as(config, { userId: `trader-${unique()}`, email: 'trader@example.com', role: 'trader' })

async function logEntry(values: { outcome: string; source?: string; rawBody?: string; kind?: string | null; contentType?: string | null; authenticated?: boolean; bodyTruncated?: boolean }) {
  const row = await app.db
    .insertInto('intake_log')
    .values({
      intake_id: randomUUID(),
      received_at: new Date(),
      source: values.source ?? 'body',
      content_type: values.contentType === undefined ? 'application/json' : values.contentType,
      remote_address: '203.0.113.9',
      raw_body: values.rawBody ?? '{"action":"buy","symbol":"NQ1!","secret":"[redacted]"}',
      outcome: values.outcome,
      status_code: values.outcome === 'accepted' ? 202 : 400,
      reason: values.outcome === 'accepted' ? null : 'why it was refused',
      alert_id: null,
      kind: values.kind ?? null,
      authenticated: values.authenticated ?? true,
      body_truncated: values.bodyTruncated ?? false,
    })
    .returning(['id', 'intake_id'])
    .executeTakeFirstOrThrow()
  return { id: String(row.id), intakeId: row.intake_id }
}

const accepted = await logEntry({ outcome: 'accepted', kind: 'entry' })
const invalid = await logEntry({ outcome: 'invalid', rawBody: 'action: buy\nsymbol: NQ1!', contentType: 'text/plain' })
const queryForm = await logEntry({ outcome: 'missing_user_id', source: 'query', rawBody: '{"action":"sell"}', contentType: null })
const testAlert = await logEntry({ outcome: 'too_old', kind: 'test' })

t.test('only administrators see the intake log or replay', async (t) => {
  t.equal((await app.inject({ method: 'GET', url: '/api/admin/intake', headers: asTrader })).statusCode, 403)
  t.equal((await app.inject({ method: 'POST', url: `/api/admin/intake/${invalid.id}/replay`, headers: asTrader })).statusCode, 403)
})

t.test('the log lists newest first, filters by outcome, pages by cursor, and gives the raw body on demand', async (t) => {
  const all = (await app.inject({ method: 'GET', url: '/api/admin/intake', headers: asAdmin })).json()
  t.same(all.entries.map((entry: { id: string }) => entry.id), [testAlert.id, queryForm.id, invalid.id, accepted.id])
  t.notOk('rawBody' in all.entries[0], 'no raw body unless asked')
  t.same(all.entries.map((entry: { replayable: boolean }) => entry.replayable), [false, true, true, false], 'refused live webhooks only')
  const refused = (await app.inject({ method: 'GET', url: '/api/admin/intake?outcome=invalid&raw=true', headers: asAdmin })).json()
  t.same(refused.entries.map((entry: { id: string }) => entry.id), [invalid.id])
  t.equal(refused.entries[0].rawBody, 'action: buy\nsymbol: NQ1!')
  const first = (await app.inject({ method: 'GET', url: '/api/admin/intake?limit=2', headers: asAdmin })).json()
  t.equal(first.nextCursor, queryForm.id)
  const second = (await app.inject({ method: 'GET', url: `/api/admin/intake?limit=2&before=${first.nextCursor}`, headers: asAdmin })).json()
  t.same(second.entries.map((entry: { id: string }) => entry.id), [invalid.id, accepted.id])
  const bad = await app.inject({ method: 'GET', url: '/api/admin/intake?outcome=nonsense', headers: asAdmin })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error, /outcome/)
})

t.test('a refused webhook is replayed as its sender sent it, with the secret, and audited', async (t) => {
  const before = ingest.received.length
  const response = await app.inject({ method: 'POST', url: `/api/admin/intake/${invalid.id}/replay`, headers: asAdmin })
  t.equal(response.statusCode, 200)
  t.match(response.json(), { success: true, replay: { statusCode: 202, accepted: true } })
  const sent = ingest.received[before]
  t.equal(sent?.body, 'action: buy\nsymbol: NQ1!', 'the stored text, unchanged')
  t.equal(sent?.headers['content-type'], 'text/plain')
  t.equal(new URL(sent?.url ?? '', 'http://x').searchParams.get('secret'), SECRET, 'the secret ingest redacted goes back in')

  await app.inject({ method: 'POST', url: `/api/admin/intake/${queryForm.id}/replay`, headers: asAdmin })
  const query = new URL(ingest.received[before + 1]?.url ?? '', 'http://x').searchParams
  t.equal(query.get('message'), '{"action":"sell"}', 'a ?message= alert is replayed in the query')

  const audit = (await app.inject({ method: 'GET', url: `/api/admin/audit?action=replay&actor=${adminId}`, headers: asAdmin })).json()
  t.same(audit.entries.map((entry: { target: string }) => entry.target).sort(), [invalid.intakeId, queryForm.intakeId].sort())
  const otherActor = (await app.inject({ method: 'GET', url: '/api/admin/audit?action=replay&actor=somebody-else', headers: asAdmin })).json()
  t.same(otherActor.entries, [], 'filtered by actor')
})

t.test('an accepted webhook, a test alert and an unknown entry are not replayed', async (t) => {
  const before = ingest.received.length
  const again = await app.inject({ method: 'POST', url: `/api/admin/intake/${accepted.id}/replay`, headers: asAdmin })
  t.equal(again.statusCode, 409)
  t.match(again.json().error, /accepted/)
  const test = await app.inject({ method: 'POST', url: `/api/admin/intake/${testAlert.id}/replay`, headers: asAdmin })
  t.equal(test.statusCode, 409)
  t.match(test.json().error, /test alert/)
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/intake/999999/replay', headers: asAdmin })).statusCode, 404)
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/intake/abc/replay', headers: asAdmin })).statusCode, 400)
  t.equal(ingest.received.length, before, 'nothing reached ingest')
})

t.test('a 401 or 403 webhook is never replayable: the replay would add the real secret (issue 22 item 7)', async (t) => {
  const unauthorized = await logEntry({ outcome: 'unauthorized', kind: 'entry', rawBody: '{"action":"buy","symbol":"MNQ1!","user_id":"victim"}' })
  const forbidden = await logEntry({ outcome: 'forbidden', kind: null })
  const listed = (await app.inject({ method: 'GET', url: '/api/admin/intake?limit=2', headers: asAdmin })).json()
  t.same(listed.entries.map((entry: { id: string; replayable: boolean }) => [entry.id, entry.replayable]), [[forbidden.id, false], [unauthorized.id, false]], 'not listed as replayable')
  const before = ingest.received.length
  for (const [entry, outcome] of [[unauthorized, 'unauthorized'], [forbidden, 'forbidden']] as const) {
    const response = await app.inject({ method: 'POST', url: `/api/admin/intake/${entry.id}/replay`, headers: asAdmin })
    t.equal(response.statusCode, 409, outcome)
    t.match(response.json(), { success: false, error: new RegExp(`was ${outcome}.*never replayed`) })
  }
  t.equal(ingest.received.length, before, 'nothing reached ingest')
})

t.test('a refusal that never passed the secret check, or kept only part of its body, is not replayable', async (t) => {
  const preAuth = await logEntry({ outcome: 'invalid', authenticated: false })
  const truncated = await logEntry({ outcome: 'missing_user_id', bodyTruncated: true })
  const listed = (await app.inject({ method: 'GET', url: '/api/admin/intake?limit=2', headers: asAdmin })).json()
  t.same(listed.entries.map((entry: { id: string; replayable: boolean }) => [entry.id, entry.replayable]), [[truncated.id, false], [preAuth.id, false]])
  t.match(listed.entries[0], { bodyTruncated: true, authenticated: true })
  const before = ingest.received.length
  const first = await app.inject({ method: 'POST', url: `/api/admin/intake/${preAuth.id}/replay`, headers: asAdmin })
  t.equal(first.statusCode, 409)
  t.match(first.json().error, /before its secret was checked/)
  const second = await app.inject({ method: 'POST', url: `/api/admin/intake/${truncated.id}/replay`, headers: asAdmin })
  t.equal(second.statusCode, 409)
  t.match(second.json().error, /only the start of its body/)
  t.equal(ingest.received.length, before, 'nothing reached ingest')
})

t.test('an administrator sees bodies and reasons with secret-named values redacted, also of entries logged before every name was (issue 22 item 6)', async (t) => {
  const old = await logEntry({ outcome: 'invalid', rawBody: '{"action":"buy","api_key":"AK-live-123","nested":{"Pass-Phrase":"pp-9"}}' })
  await app.db.updateTable('intake_log').set({ reason: 'Malformed JSON at line 1, column 40: {"token":"tk-77",' }).where('id', '=', Number(old.id)).execute()
  const listed = (await app.inject({ method: 'GET', url: '/api/admin/intake?limit=1&raw=true', headers: asAdmin })).json()
  t.equal(listed.entries[0].id, old.id)
  t.notMatch(JSON.stringify(listed.entries[0]), /AK-live-123|pp-9|tk-77/, 'no secret value in the view')
  t.match(listed.entries[0], { rawBody: /"api_key":"\[redacted\]"/, reason: /"token":"\[redacted\]"/ })
})
