import t from 'tap'
import { randomUUID } from 'node:crypto'
import { build, as, unique } from '../helper.ts'

const { app, config } = await build(t)
const trader = `trader-${unique()}`
const other = `trader-${unique()}`
const asTrader = as(config, { userId: trader, email: 'trader@example.com', role: 'trader' })

async function logEntry(values: { userId: string | null; outcome: string; statusCode: number; reason?: string | null; rawBody?: string; kind?: 'entry' | 'result' }) {
  const row = await app.db
    .insertInto('intake_log')
    .values({
      intake_id: randomUUID(), received_at: new Date(), source: 'body', content_type: 'application/json', remote_address: '203.0.113.9',
      raw_body: values.rawBody ?? '{"action":"buy"}', outcome: values.outcome, status_code: values.statusCode, reason: values.reason ?? null,
      alert_id: null, kind: values.kind ?? null, user_id: values.userId, authenticated: values.outcome !== 'unauthorized', body_truncated: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return String(row.id)
}

const accepted = await logEntry({ userId: trader, outcome: 'accepted', statusCode: 200, kind: 'result' })
const refused = await logEntry({ userId: trader, outcome: 'unauthorized', statusCode: 401, reason: 'Webhook secret missing or wrong', rawBody: '{"user_id":"x","passphrase":"leaked-pass","Api-Key":"leaked-key"}' })
await logEntry({ userId: other, outcome: 'invalid', statusCode: 400, reason: "another trader's" })
await logEntry({ userId: null, outcome: 'rate_limited', statusCode: 429 })
const invalid = await logEntry({ userId: trader, outcome: 'invalid', statusCode: 400, reason: 'Action "dance" is not understood' })

t.test("GET /api/intake lists the webhooks that named the caller, each refusal with its reason, newest first (issue 22)", async (t) => {
  const response = await app.inject({ method: 'GET', url: '/api/intake', headers: asTrader })
  t.equal(response.statusCode, 200)
  const page = response.json()
  t.same(page.entries.map((entry: { id: string }) => entry.id), [invalid, refused, accepted], "only the caller's, never another trader's nor anonymous ones")
  t.match(page.entries[0], { outcome: 'invalid', statusCode: 400, reason: 'Action "dance" is not understood', bodyTruncated: false })
  t.match(page.entries[1], { outcome: 'unauthorized', statusCode: 401, reason: 'Webhook secret missing or wrong' })
  t.notOk('remoteAddress' in page.entries[0], "the sender's address is not shown")
  t.notOk('body' in page.entries[0], 'no body unless asked')
  t.equal(page.nextCursor, null)

  const withBody = (await app.inject({ method: 'GET', url: `/api/intake?outcome=unauthorized&raw=true`, headers: asTrader })).json()
  t.same(withBody.entries.map((entry: { id: string }) => entry.id), [refused])
  t.notMatch(withBody.entries[0].body, /leaked-pass|leaked-key/, 'secrets redacted')
  t.match(withBody.entries[0].body, /"passphrase":"\[redacted\]"/)

  const first = (await app.inject({ method: 'GET', url: '/api/intake?limit=2', headers: asTrader })).json()
  t.equal(first.nextCursor, refused)
  const second = (await app.inject({ method: 'GET', url: `/api/intake?limit=2&before=${first.nextCursor}`, headers: asTrader })).json()
  t.same(second.entries.map((entry: { id: string }) => entry.id), [accepted])

  const refusedOnly = await app.inject({ method: 'GET', url: '/api/intake?refused=true&limit=2', headers: asTrader })
  t.equal(refusedOnly.statusCode, 200)
  t.same(refusedOnly.json().entries.map((entry: { id: string }) => entry.id), [invalid, refused], 'refused=true: only the refusals, paged on the server')

  const results = (await app.inject({ method: 'GET', url: '/api/intake?kind=result', headers: asTrader })).json()
  t.same(results.entries.map((entry: { id: string }) => entry.id), [accepted], "kind=result: only the caller's exits and results (the Alerts card's)")
  t.equal((await app.inject({ method: 'GET', url: '/api/intake?kind=exit', headers: asTrader })).statusCode, 400, 'an unknown kind is a 400')

  t.equal((await app.inject({ method: 'GET', url: '/api/intake' })).statusCode, 401, 'no identity, no intake')
  t.equal((await app.inject({ method: 'GET', url: '/api/intake?limit=0', headers: asTrader })).statusCode, 400)
})
