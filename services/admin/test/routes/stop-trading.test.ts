import t from 'tap'
import { sql } from '@signals/db'
import { as, build, insertUser, unique } from '../helper.ts'

const { app, config, adminEmail } = await build(t)
const adminId = `admin-${unique()}`
const asAdmin = as(config, { userId: adminId, email: adminEmail, role: 'admin' })
await insertUser(app, { userId: adminId, email: adminEmail, approved: true, role: 'admin' })

async function liveTrader(prefix: string) {
  const userId = `${prefix}-${unique()}`
  const email = `${userId}@example.com`
  await insertUser(app, { userId, email, approved: true })
  await switchPrimary(userId, { enabled: true, autoPlaceOrders: true })
  return { userId, email }
}

/** The spec's live_trading setting is the primary account's switches (the settings service saves them so). */
async function switchPrimary(userId: string, switches: { enabled: boolean; autoPlaceOrders: boolean }) {
  await sql`UPDATE broker_accounts SET live_trading = ${switches.enabled}, auto_place = ${switches.autoPlaceOrders}, switches_updated_at = clock_timestamp()
    WHERE user_id = ${userId} AND is_primary`.execute(app.db)
}

async function liveTrading(userId: string) {
  const { rows } = await sql<{ value: Record<string, unknown> }>`
    SELECT jsonb_build_object('enabled', live_trading, 'autoPlaceOrders', auto_place) AS value FROM broker_accounts WHERE user_id = ${userId} AND is_primary`.execute(app.db)
  return rows[0]?.value
}

async function feedCommands(userId: string) {
  const { rows } = await sql<{ action: string; reason: string; published_at: Date | null }>`
    SELECT action, reason, published_at FROM feed_commands WHERE user_id = ${userId} ORDER BY id`.execute(app.db)
  return rows
}

t.test('a ban switches live trading off and queues a feed stop in the same transaction', async (t) => {
  const { userId, email } = await liveTrader('banned')
  const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email, reason: 'fraud' } })
  t.equal(response.statusCode, 201)
  t.same(await liveTrading(userId), { enabled: false, autoPlaceOrders: true }, 'live trading off, the rest of the setting kept')
  t.match(await feedCommands(userId), [{ action: 'stop', reason: 'account banned', published_at: null }], 'one stop for the relay to publish')

  const again = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email, reason: 'fraud, again' } })
  t.equal(again.statusCode, 200)
  t.equal((await feedCommands(userId)).length, 1, 're-banning queues no second stop (trading is already off)')
})

t.test('a revocation switches live trading off and queues a feed stop; an approval does not', async (t) => {
  const { userId } = await liveTrader('revoked')
  const approved = await app.inject({ method: 'POST', url: `/api/admin/users/${userId}/approve`, headers: asAdmin })
  t.equal(approved.statusCode, 200)
  t.match(await liveTrading(userId), { enabled: true }, 'approving changes nothing')
  t.same(await feedCommands(userId), [])

  const revoked = await app.inject({ method: 'POST', url: `/api/admin/users/${userId}/revoke`, headers: asAdmin })
  t.equal(revoked.statusCode, 200)
  t.match(await liveTrading(userId), { enabled: false })
  t.match(await feedCommands(userId), [{ action: 'stop', reason: 'approval revoked' }])
})

t.test('a user without live trading gets no feed command on a ban', async (t) => {
  const userId = `idle-${unique()}`
  await insertUser(app, { userId, email: `${userId}@example.com`, approved: true })
  const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email: `${userId}@example.com` } })
  t.equal(response.statusCode, 201)
  t.same(await feedCommands(userId), [])
})

t.test('a revocation refused (administrator) switches nothing off', async (t) => {
  await switchPrimary(adminId, { enabled: true, autoPlaceOrders: false })
  const response = await app.inject({ method: 'POST', url: `/api/admin/users/${adminId}/revoke`, headers: asAdmin })
  t.equal(response.statusCode, 409)
  t.match(await liveTrading(adminId), { enabled: true }, 'rolled back with the refused revoke')
  t.same(await feedCommands(adminId), [])
})

t.test("a ban switches off every account of the trader, the primary's setting time advanced, other switches kept", async (t) => {
  const { userId, email } = await liveTrader('accounts')
  const login = await sql<{ id: string }>`INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext)
    VALUES (${userId}, 'paper', 'demo', 'EVAL2', 'k', '\\x000000000000000000000000', '\\x00000000000000000000000000000000', '\\x00') RETURNING id`.execute(app.db)
  await sql`INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name, auto_place) VALUES (${userId}, ${login.rows[0]!.id}, 'EVAL2', 'Eval 2', true)`.execute(app.db)
  const before = await sql<{ at: Date }>`SELECT switches_updated_at AS at FROM broker_accounts WHERE user_id = ${userId} AND is_primary`.execute(app.db)

  const response = await app.inject({ method: 'POST', url: '/api/admin/bans', headers: asAdmin, payload: { email, reason: 'fraud' } })
  t.equal(response.statusCode, 201)
  const accounts = await sql<{ is_primary: boolean; live_trading: boolean; auto_place: boolean; switches_updated_at: Date | null }>`
    SELECT is_primary, live_trading, auto_place, switches_updated_at FROM broker_accounts WHERE user_id = ${userId} ORDER BY is_primary DESC`.execute(app.db)
  t.match(accounts.rows, [
    { is_primary: true, live_trading: false, auto_place: true },
    { is_primary: false, live_trading: false, auto_place: true, switches_updated_at: null },
  ], 'no account of the trader is live; auto-place kept on each')
  t.ok(accounts.rows[0]!.switches_updated_at! > before.rows[0]!.at, "the primary's setting time advanced (the spec's updatedAt)")
  t.match(await feedCommands(userId), [{ action: 'stop', reason: 'account banned' }], 'one stop')
})
