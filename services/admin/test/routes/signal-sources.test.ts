import t from 'tap'
import { signalSourceTokenHash } from '@signals/http-kit'
import { as, build, insertUser, unique } from '../helper.ts'

const { app, config, adminEmail } = await build(t, { PUBLIC_URL: 'https://signals.example.com' })
const adminId = `admin-${unique()}`
const asAdmin = as(config, { userId: adminId, email: adminEmail, role: 'admin' })
await insertUser(app, { userId: adminId, email: adminEmail, approved: true, role: 'admin' })

const queuedHashes = async () => (await app.db.selectFrom('signal_source_key_changes').select('token_hash').orderBy('id').execute()).map((row) => row.token_hash)

t.test('an administrator makes, lists, rotates and deletes an operator source; each change is queued for ingest', async (t) => {
  await app.db.deleteFrom('signal_source_key_changes').execute()
  const made = await app.inject({ method: 'POST', url: '/api/admin/signal-sources', headers: asAdmin, payload: { name: 'House NQ' } })
  t.equal(made.statusCode, 200, made.body)
  const { source, url, token } = made.json()
  t.equal(url, `https://signals.example.com/webhook/s/${token}`)
  const row = await app.db.selectFrom('signal_sources').selectAll().where('id', '=', source.id).executeTakeFirstOrThrow()
  t.equal(row.owner_user_id, null, 'an operator source has no owner')
  t.equal(row.token_hash, signalSourceTokenHash(token))
  t.same(await queuedHashes(), [signalSourceTokenHash(token)], 'queued for the relay')

  const trader = `trader-${unique()}`
  await insertUser(app, { userId: trader, email: `${trader}@example.com`, approved: true })
  await app.db.insertInto('signal_source_subscriptions').values({ source_id: source.id, user_id: trader, size_rule: 'account' }).execute()
  const listed = await app.inject({ method: 'GET', url: '/api/admin/signal-sources', headers: asAdmin })
  t.match(listed.json().sources, [{ id: source.id, name: 'House NQ', subscribers: 1 }])
  t.notOk(listed.body.includes(token))

  const rotated = await app.inject({ method: 'POST', url: `/api/admin/signal-sources/${source.id}/rotate`, headers: asAdmin })
  t.equal(rotated.statusCode, 200, rotated.body)
  t.same((await queuedHashes()).slice(1), [signalSourceTokenHash(token), signalSourceTokenHash(rotated.json().token)], 'old and new hash queued')

  const traderHeaders = as(config, { userId: trader, email: `${trader}@example.com`, role: 'trader' })
  t.equal((await app.inject({ method: 'POST', url: '/api/admin/signal-sources', headers: traderHeaders, payload: { name: 'x' } })).statusCode, 403, 'administrators only')

  t.equal((await app.inject({ method: 'DELETE', url: `/api/admin/signal-sources/${source.id}`, headers: asAdmin })).statusCode, 200)
  t.equal((await app.inject({ method: 'DELETE', url: `/api/admin/signal-sources/${source.id}`, headers: asAdmin })).statusCode, 404, 'already deleted')
  t.same((await app.inject({ method: 'GET', url: '/api/admin/signal-sources', headers: asAdmin })).json().sources, [])
  const audit = await app.db.selectFrom('admin_audit_log').select('action').where('target', '=', source.id).orderBy('id').execute()
  t.same(audit.map((entry) => entry.action), ['signal_source_create', 'signal_source_rotate', 'signal_source_delete'])
})

t.test("a ban revokes the owner's sources; an approval change has them checked again", async (t) => {
  const owner = `owner-${unique()}`
  const email = `${owner}@example.com`
  await insertUser(app, { userId: owner, email, approved: true })
  const source = await app.db.insertInto('signal_sources').values({ owner_user_id: owner, name: 'mine', token_hash: signalSourceTokenHash(unique()) }).returningAll().executeTakeFirstOrThrow()

  await app.db.deleteFrom('signal_source_key_changes').execute()
  t.equal((await app.inject({ method: 'POST', url: `/api/admin/users/${owner}/revoke`, headers: asAdmin, payload: {} })).statusCode, 200)
  t.same(await queuedHashes(), [source.token_hash], 'revoking approval queues the source for a check')

  const banned = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email, reason: 'fraud' } })
  t.equal(banned.statusCode, 201, banned.body)
  const after = await app.db.selectFrom('signal_sources').select('revoked_at').where('id', '=', source.id).executeTakeFirstOrThrow()
  t.ok(after.revoked_at, 'revoked with the ban')
  t.same(await queuedHashes(), [source.token_hash, source.token_hash], 'queued for removal from ingest')
})
