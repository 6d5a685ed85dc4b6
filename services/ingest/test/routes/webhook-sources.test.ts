import t from 'tap'
import { openBucket } from '@signals/bus'
import { Buckets, type NormalizedAlert } from '@signals/contracts'
import { newSignalSourceToken } from '@signals/http-kit'
import { build, eventually } from '../helper.ts'

type App = Awaited<ReturnType<typeof build>>['app']

/** A live source as the settings relay writes it: its URL token, keyed by hash in SIGNAL_SOURCES. */
async function liveSource(app: App, sourceId: string, ownerUserId: string | null) {
  const { token, tokenHash } = newSignalSourceToken()
  const kv = await openBucket(app.bus, Buckets.signalSources)
  await kv.put(tokenHash, JSON.stringify({ version: 1, sourceId, ownerUserId }))
  return { token, url: `/webhook/s/${token}`, revoke: async () => void (await kv.purge(tokenHash)) }
}

const ALICE_SOURCE = '0b7c6a3e-1f2d-4c5b-8a9e-0123456789ab'
const BOB_SOURCE = '1c8d7b4f-2e3a-4d6c-9baf-123456789abc'
const HOUSE_SOURCE = '2d9e8c5a-3f4b-4e7d-8cb0-23456789abcd'

const strip = ({ alertId: _id, receivedAt: _at, sourceId: _source, ...rest }: NormalizedAlert) => rest

t.test('every form the spec accepts works on a source URL, parsed exactly as on POST /webhook/alert', async (t) => {
  const { app, watcher } = await build(t)
  const alice = await liveSource(app, ALICE_SOURCE, 'alice')
  const json = { action: 'buy', symbol: 'NQ1!', entryPrice: 21000, sl: 20950, tp: 21100, quantity: 2 }
  const forms: { label: string; query?: string; contentType?: string; payload?: string }[] = [
    { label: 'JSON', contentType: 'application/json', payload: JSON.stringify(json) },
    { label: 'JSON inside message', contentType: 'application/json', payload: JSON.stringify({ message: JSON.stringify(json) }) },
    { label: '?message=', query: `message=${encodeURIComponent(JSON.stringify(json))}` },
    { label: 'label lines', contentType: 'text/plain', payload: 'Action: Buy\nSymbol: NQ1!\nEntry Price: 21000\nSL: 20950\nTP: 21100\nQuantity: 2' },
    { label: 'form', contentType: 'application/x-www-form-urlencoded', payload: 'action=buy&symbol=NQ1!&entryPrice=21000&sl=20950&tp=21100&quantity=2' },
  ]
  for (const form of forms) {
    const send = (path: string, query: string) =>
      app.inject({ method: 'POST', url: `${path}?${[query, form.query].filter(Boolean).join('&')}`, headers: form.contentType ? { 'content-type': form.contentType } : {}, ...(form.payload === undefined ? {} : { payload: form.payload }) })
    const spec = await send('/webhook/alert', 'user_id=alice')
    const viaSource = await send(alice.url, '')
    t.equal(spec.statusCode, 200, `${form.label} on the spec route: ${spec.body}`)
    t.equal(viaSource.statusCode, 200, `${form.label} on the source: ${viaSource.body}`)
    const published = (alertId: string) => watcher.alerts.find(({ body }) => body.alertId === alertId)?.body
    await eventually(() => published(spec.json().alertId) !== undefined && published(viaSource.json().alertId) !== undefined)
    const bySpec = published(spec.json().alertId)
    const bySource = published(viaSource.json().alertId)
    t.ok(bySpec && bySource, form.label)
    if (!bySpec || !bySource) continue
    t.equal(bySource.sourceId, ALICE_SOURCE, `${form.label}: carries its source`)
    t.equal(bySpec.sourceId, undefined, `${form.label}: the spec route's alert names no source`)
    t.equal(bySource.userId, 'alice', `${form.label}: the owner, though the payload names no user`)
    t.not(bySource.alertId, bySpec.alertId, `${form.label}: the source is its own duplicate scope`)
    // The label lines and the form have no user_id in the source's payload: raw differs only by what was sent.
    t.same({ ...strip(bySource), raw: null }, { ...strip(bySpec), raw: null }, `${form.label}: the same alert`)
  }
})

t.test("an unknown, malformed or revoked token is a 401 saying so, never a 5xx; nothing published", async (t) => {
  const { app, watcher } = await build(t, { WEBHOOK_SECRET: 'the-shared-webhook-secret' })
  const alice = await liveSource(app, ALICE_SOURCE, 'alice')
  const payload = { action: 'buy', symbol: 'NQ1!', user_id: 'alice' }
  const ok = await app.inject({ method: 'POST', url: alice.url, payload })
  t.equal(ok.statusCode, 200, 'the token is the credential: WEBHOOK_SECRET is not asked for')
  await alice.revoke()
  for (const url of [alice.url, `/webhook/s/${'A'.repeat(43)}`, '/webhook/s/short', '/webhook/s/%00%00']) {
    const response = await app.inject({ method: 'POST', url, payload })
    t.equal(response.statusCode, 401, url)
    t.match(response.json(), { success: false, error: /^Unknown or revoked signal source URL/ }, url)
  }
  const entries = await watcher.intakeEntries(5)
  t.same(entries.slice(1).map((entry) => [entry.outcome, entry.authenticated]), Array(4).fill(['unauthorized', false]), 'logged as unauthorized, never authenticated')
  t.equal(watcher.alerts.length, 1, 'only the alert sent before the revocation')
})

t.test("a trader's source: user_id is not needed, the owner's is accepted, another trader's is refused", async (t) => {
  const { app, watcher } = await build(t)
  const alice = await liveSource(app, ALICE_SOURCE, 'alice')
  const entry = { action: 'sell', symbol: 'ES1!', entryPrice: 5000 }
  t.equal((await app.inject({ method: 'POST', url: alice.url, payload: entry })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: alice.url, payload: { ...entry, user_id: 'alice', id: 'x1' } })).statusCode, 200)
  const other = await app.inject({ method: 'POST', url: alice.url, payload: { ...entry, user_id: 'bob' } })
  t.equal(other.statusCode, 403)
  t.match(other.json().error, /user_id names another trader/)
  const result = await app.inject({ method: 'POST', url: alice.url, payload: { symbol: 'ES1!', result: 'TP', exitPrice: 5010 } })
  t.equal(result.statusCode, 200, 'a result alert too')
  const messages = await watcher.alertMessages(3)
  t.same(messages.map(({ body }) => [body.kind, body.userId, body.sourceId]), [['entry', 'alice', ALICE_SOURCE], ['entry', 'alice', ALICE_SOURCE], ['result', 'alice', ALICE_SOURCE]])
  const entries = await watcher.intakeEntries(4)
  t.match(entries[2], { outcome: 'forbidden', statusCode: 403, userId: 'alice' }, "the refusal is in the owner's intake")
})

t.test('an operator source: an entry needs no user_id; one named is kept as the alert\'s owner', async (t) => {
  const { app, watcher } = await build(t)
  const house = await liveSource(app, HOUSE_SOURCE, null)
  t.equal((await app.inject({ method: 'POST', url: house.url, payload: { action: 'buy', symbol: 'NQ1!' } })).statusCode, 200)
  t.equal((await app.inject({ method: 'POST', url: house.url, payload: { action: 'buy', symbol: 'NQ1!', user_id: 'desk' } })).statusCode, 200)
  const messages = await watcher.alertMessages(2)
  t.same(messages.map(({ body }) => [body.userId, body.sourceId]), [[null, HOUSE_SOURCE], ['desk', HOUSE_SOURCE]])
})

t.test('duplicates are per sender: an explicit id is unique within its source, and within user_id on the spec route (issue 22 item 5)', async (t) => {
  const { app } = await build(t)
  const alice = await liveSource(app, ALICE_SOURCE, 'alice')
  const bob = await liveSource(app, BOB_SOURCE, 'bob')
  const house = await liveSource(app, HOUSE_SOURCE, null)
  const long = { id: 'Long', action: 'buy', symbol: 'NQ1!', entryPrice: 21000 }
  const post = async (url: string, payload: Record<string, unknown>) => (await app.inject({ method: 'POST', url, payload })).json<{ duplicate: boolean; alertId: string }>()

  const specA = await post('/webhook/alert', { ...long, user_id: 'trader-a' })
  const specB = await post('/webhook/alert', { ...long, user_id: 'trader-b' })
  t.equal(specB.duplicate, false, "trader B's Long is not a duplicate of trader A's on the spec route")
  t.equal((await post('/webhook/alert', { ...long, user_id: 'trader-a', entryPrice: 21001 })).duplicate, true, "A's resend with the same id is")

  const viaAlice = await post(alice.url, long)
  const viaBob = await post(bob.url, long)
  const viaHouse = await post(house.url, long)
  t.same([viaAlice.duplicate, viaBob.duplicate, viaHouse.duplicate], [false, false, false], 'each source is its own scope')
  t.equal(new Set([specA.alertId, specB.alertId, viaAlice.alertId, viaBob.alertId, viaHouse.alertId]).size, 5, 'five senders, five ids')
  t.equal((await post(alice.url, long)).duplicate, true, 'a resend to the same source is a duplicate')
  t.equal((await post('/webhook/alert', { ...long, user_id: 'alice' })).duplicate, false, "alice's own Long on the spec route is not her source's")
})
