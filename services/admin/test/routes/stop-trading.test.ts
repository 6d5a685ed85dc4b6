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
  await sql`INSERT INTO trading_settings (user_id, setting_key, setting_value)
    VALUES (${userId}, 'live_trading', '{"enabled": true, "autoPlaceOrders": true}'::jsonb)`.execute(app.db)
  return { userId, email }
}

async function liveTrading(userId: string) {
  const { rows } = await sql<{ value: Record<string, unknown> }>`
    SELECT setting_value AS value FROM trading_settings WHERE user_id = ${userId} AND setting_key = 'live_trading'`.execute(app.db)
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
  await sql`INSERT INTO trading_settings (user_id, setting_key, setting_value)
    VALUES (${adminId}, 'live_trading', '{"enabled": true, "autoPlaceOrders": false}'::jsonb)`.execute(app.db)
  const response = await app.inject({ method: 'POST', url: `/api/admin/users/${adminId}/revoke`, headers: asAdmin })
  t.equal(response.statusCode, 409)
  t.match(await liveTrading(adminId), { enabled: true }, 'rolled back with the refused revoke')
  t.same(await feedCommands(adminId), [])
})
