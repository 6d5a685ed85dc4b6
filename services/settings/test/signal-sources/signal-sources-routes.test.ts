import t from 'tap'
import { Kvm } from '@nats-io/kv'
import { Buckets, SignalSourceKeyV1, contract } from '@signals/contracts'
import { signalSourceTokenHash } from '@signals/http-kit'
import { build } from '../helper.ts'

const keyContract = contract(SignalSourceKeyV1)
const DEFAULT_SOURCE_ID = '00000000-0000-0000-0000-000000000000'

/** The listed sources other than the default one (the spec route), which every trader sees first. */
const rowSources = (body: { sources: { isDefault: boolean; kind: string; subscriptions: unknown[] }[] }) => body.sources.filter((each) => !each.isDefault)

t.test('a trader makes, lists, rotates, subscribes and deletes a signal source; ingest\'s bucket follows', async (t) => {
  const { app, createUser } = await build(t, { overrides: { PUBLIC_URL: 'https://signals.example.com' } })
  const alice = await createUser('alice')
  const bob = await createUser('bob')
  const kv = async () => new Kvm(app.bus.nc).open(app.bus.stream(Buckets.signalSources))
  const keyOf = async (token: string) => {
    const entry = await (await kv()).get(signalSourceTokenHash(token))
    return entry === null || entry.operation !== 'PUT' ? null : keyContract.validate(entry.json())
  }

  const made = await app.inject({ method: 'POST', url: '/api/signal-sources', headers: alice, payload: { name: 'NQ breakout' } })
  t.equal(made.statusCode, 200, made.body)
  const { source, url, token } = made.json()
  t.match(token, /^[A-Za-z0-9_-]{43}$/, 'a 32-byte url-safe token')
  t.equal(url, `https://signals.example.com/webhook/s/${token}`)
  t.same(source.subscriptions, [{ sizeRule: 'account', multiplier: null }], 'the owner is subscribed with their own sizing')
  const row = await app.db.selectFrom('signal_sources').selectAll().where('id', '=', source.id).executeTakeFirstOrThrow()
  t.equal(row.token_hash, signalSourceTokenHash(token), 'only the hash is stored')
  t.notOk(JSON.stringify(row).includes(token), 'the token itself is nowhere in the row')

  const listed = await app.inject({ method: 'GET', url: '/api/signal-sources', headers: alice })
  t.same(listed.json().sources.map((each: { id: string; kind: string }) => [each.id, each.kind]), [[DEFAULT_SOURCE_ID, 'operator'], [source.id, 'trader']], 'the default source first, then hers')
  t.notOk(listed.body.includes(token), 'the list never shows the token')
  t.same(rowSources((await app.inject({ method: 'GET', url: '/api/signal-sources', headers: bob })).json()), [], "another trader does not see alice's source")

  await app.signalSourceKeys?.runOnce()
  t.same(await keyOf(token), { ok: true, value: { version: 1, sourceId: source.id, ownerUserId: 'alice' } }, 'ingest can resolve the token')

  t.equal((await app.inject({ method: 'POST', url: `/api/signal-sources/${source.id}/rotate`, headers: bob })).statusCode, 404, 'bob cannot rotate it')
  const rotated = await app.inject({ method: 'POST', url: `/api/signal-sources/${source.id}/rotate`, headers: alice })
  t.equal(rotated.statusCode, 200, rotated.body)
  const newToken = rotated.json().token
  t.not(newToken, token)
  t.ok(rotated.json().source.rotatedAt)
  await app.signalSourceKeys?.runOnce()
  t.equal(await keyOf(token), null, 'the old token is dead')
  t.equal((await keyOf(newToken))?.ok, true, 'the new one works')

  const bad = await app.inject({ method: 'PUT', url: `/api/signal-sources/${source.id}/subscriptions`, headers: alice, payload: { subscriptions: [{ sizeRule: 'multiplier', multiplier: 0 }] } })
  t.equal(bad.statusCode, 400)
  t.match(bad.json().error, /Invalid subscriptions/)
  const multiplied = await app.inject({ method: 'PUT', url: `/api/signal-sources/${source.id}/subscriptions`, headers: alice, payload: { subscriptions: [{ sizeRule: 'multiplier', multiplier: 2 }] } })
  t.equal(multiplied.statusCode, 200, multiplied.body)
  t.same(multiplied.json().source.subscriptions, [{ sizeRule: 'multiplier', multiplier: 2 }])
  t.same(await app.db.selectFrom('signal_source_subscriptions').select(['size_rule', 'multiplier']).execute(), [{ size_rule: 'multiplier', multiplier: '2' }], 'stored: the entry flow sizes by it')
  const shown = (await app.inject({ method: 'GET', url: '/api/signal-sources', headers: alice })).json().sources.find((listedSource: { id: string }) => listedSource.id === source.id)
  t.same(shown.subscriptions, [{ sizeRule: 'multiplier', multiplier: 2 }], 'the list shows the rule')
  t.equal((await app.inject({ method: 'PUT', url: `/api/signal-sources/${source.id}/subscriptions`, headers: bob, payload: { subscriptions: [{ sizeRule: 'account' }] } })).statusCode, 404, "bob cannot subscribe to alice's source")
  const off = await app.inject({ method: 'PUT', url: `/api/signal-sources/${source.id}/subscriptions`, headers: alice, payload: { subscriptions: [] } })
  t.same(off.json().source.subscriptions, [])
  t.equal(await app.db.selectFrom('signal_source_subscriptions').select('user_id').executeTakeFirst(), undefined)

  t.equal((await app.inject({ method: 'DELETE', url: `/api/signal-sources/${source.id}`, headers: bob })).statusCode, 404, 'bob cannot delete it')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/signal-sources/${source.id}`, headers: alice })).statusCode, 200)
  await app.signalSourceKeys?.runOnce()
  t.equal(await keyOf(newToken), null, 'a deleted source stops working')
  t.same(rowSources((await app.inject({ method: 'GET', url: '/api/signal-sources', headers: alice })).json()), [])
  t.equal((await app.inject({ method: 'POST', url: `/api/signal-sources/${source.id}/rotate`, headers: alice })).statusCode, 404, 'a deleted source cannot be brought back by rotating')
})

t.test('a trader subscribes to an operator source; a bad body or id is a 400 naming it', async (t) => {
  const { app, createUser } = await build(t)
  const alice = await createUser('alice')
  const operator = await app.db.insertInto('signal_sources').values({ owner_user_id: null, name: 'House signals', token_hash: 'a'.repeat(64) }).returningAll().executeTakeFirstOrThrow()
  const listed = await app.inject({ method: 'GET', url: '/api/signal-sources', headers: alice })
  t.same(rowSources(listed.json()).map((each) => [each.kind, each.subscriptions]), [['operator', []]])
  const subscribed = await app.inject({ method: 'PUT', url: `/api/signal-sources/${operator.id}/subscriptions`, headers: alice, payload: { subscriptions: [{ sizeRule: 'account' }] } })
  t.equal(subscribed.statusCode, 200, subscribed.body)
  t.equal((await app.inject({ method: 'POST', url: `/api/signal-sources/${operator.id}/rotate`, headers: alice })).statusCode, 404, 'a trader cannot rotate an operator source')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/signal-sources/${operator.id}`, headers: alice })).statusCode, 404, 'nor delete it')

  const noName = await app.inject({ method: 'POST', url: '/api/signal-sources', headers: alice, payload: { name: '   ' } })
  t.equal(noName.statusCode, 400)
  t.match(noName.json().error, /Invalid signal source/)
  const badId = await app.inject({ method: 'DELETE', url: '/api/signal-sources/not-a-uuid', headers: alice })
  t.equal(badId.statusCode, 400)
})

t.test("a banned owner's source leaves the bucket even before it is revoked", async (t) => {
  const { app, createUser } = await build(t)
  const alice = await createUser('alice')
  const made = (await app.inject({ method: 'POST', url: '/api/signal-sources', headers: alice, payload: { name: 'mine' } })).json()
  await app.signalSourceKeys?.runOnce()
  const kv = await new Kvm(app.bus.nc).open(app.bus.stream(Buckets.signalSources))
  t.equal((await kv.get(signalSourceTokenHash(made.token)))?.operation, 'PUT')
  await app.db.insertInto('banned_emails').values({ email: 'alice@example.com', reason: 'spam', sub: 'alice' }).execute()
  await app.db.insertInto('signal_source_key_changes').values({ token_hash: signalSourceTokenHash(made.token) }).execute()
  await app.signalSourceKeys?.runOnce()
  t.not((await kv.get(signalSourceTokenHash(made.token)))?.operation, 'PUT', 'gone from the bucket')
})

t.test('the default source (the spec route): listed for every trader, subscribed until they opt out, and back', async (t) => {
  const { app, createUser } = await build(t)
  const alice = await createUser('alice')
  const bob = await createUser('bob')
  const defaultOf = async (headers: Record<string, string>) => (await app.inject({ method: 'GET', url: '/api/signal-sources', headers })).json().sources[0]
  t.same(
    await defaultOf(alice),
    { id: DEFAULT_SOURCE_ID, name: 'Default (POST /webhook/alert)', kind: 'operator', isDefault: true, createdAt: null, rotatedAt: null, subscriptions: [{ sizeRule: 'account', multiplier: null }] },
    'every trader is subscribed to it with their own sizing, as the spec fans out to every live trader',
  )
  const put = (headers: Record<string, string>, subscriptions: unknown[]) =>
    app.inject({ method: 'PUT', url: `/api/signal-sources/${DEFAULT_SOURCE_ID}/subscriptions`, headers, payload: { subscriptions } })
  const optOuts = async () => (await app.db.selectFrom('default_source_opt_outs').select('user_id').orderBy('user_id').execute()).map((row) => row.user_id)

  const off = await put(alice, [])
  t.equal(off.statusCode, 200, off.body)
  t.same(off.json().source.subscriptions, [], 'opted out')
  t.equal((await put(alice, [])).statusCode, 200, 'opting out twice is harmless')
  t.same(await optOuts(), ['alice'], 'one opt-out, hers only')
  t.same((await defaultOf(alice)).subscriptions, [], 'the list shows it')
  t.same((await defaultOf(bob)).subscriptions, [{ sizeRule: 'account', multiplier: null }], 'bob is still subscribed')

  const multiplied = await put(alice, [{ sizeRule: 'multiplier', multiplier: 2 }])
  t.equal(multiplied.statusCode, 400, "the spec route sizes by the account's risk settings")
  t.match(multiplied.json().error, /the default source .* sizes every entry by your account's risk settings/)
  t.same(await optOuts(), ['alice'], 'and changes nothing')

  const on = await put(alice, [{ sizeRule: 'account' }])
  t.equal(on.statusCode, 200, on.body)
  t.same(on.json().source.subscriptions, [{ sizeRule: 'account', multiplier: null }], 'subscribed again')
  t.same(await optOuts(), [])

  t.equal((await app.inject({ method: 'POST', url: `/api/signal-sources/${DEFAULT_SOURCE_ID}/rotate`, headers: alice })).statusCode, 404, 'it cannot be rotated (its credential is WEBHOOK_SECRET)')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/signal-sources/${DEFAULT_SOURCE_ID}`, headers: alice })).statusCode, 404, 'nor deleted')
  t.equal((await app.db.selectFrom('signal_sources').select('id').execute()).length, 0, 'it has no row')
})
