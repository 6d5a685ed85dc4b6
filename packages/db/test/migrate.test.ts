import t from 'tap'
import pg from 'pg'
import { createTestDatabase, TEST_SERVER_URL } from '@signals/test-support'
import { ensureDatabase, migrateToLatest } from '../src/index.ts'

t.test('migrations apply to an empty database and are safe to run again', async (t) => {
  const name = `signals_test_${Date.now()}_emptymig`
  const url = `${TEST_SERVER_URL}/${name}`
  await ensureDatabase(url)
  await ensureDatabase(url) // creating twice is a no-op
  t.teardown(async () => {
    const admin = new pg.Client({ connectionString: `${TEST_SERVER_URL}/postgres` })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await admin.end()
  })

  const first = await migrateToLatest(url)
  t.error(first.error)
  t.ok((first.results ?? []).length >= 1, 'the first run applies migrations')
  t.ok(first.results?.every((r) => r.status === 'Success'))

  const [second, third] = await Promise.all([migrateToLatest(url), migrateToLatest(url)])
  t.error(second.error)
  t.error(third.error)
  t.same(second.results, [], 'a second run applies nothing')
  t.same(third.results, [], 'a concurrent run applies nothing either')

  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const { rows } = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  )
  await client.end()
  const tables = new Set(rows.map((r) => r.table_name))
  // Later migrations add tables; these are the data model's core and must always be there.
  for (const table of ['admin_audit_log', 'alerts', 'banned_emails', 'broker_credentials', 'intake_log', 'account_risk_configs', 'broker_accounts', 'trades', 'trading_settings', 'users']) {
    t.ok(tables.has(table), `table ${table} exists`)
  }
})

t.test('constraints refuse bad rows', async (t) => {
  const database = await createTestDatabase()
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  t.teardown(async () => {
    await client.end()
    await database.drop()
  })
  const refuses = async (sql: string, code: string, what: string, params: unknown[] = []) => {
    await t.rejects(client.query(sql, params), { code }, what)
  }
  await client.query("INSERT INTO users (user_id, email) VALUES ('u1', 'a@x.com')")

  await refuses("INSERT INTO users (user_id, email, role) VALUES ('u2', 'b@x.com', 'root')", '23514', 'unknown role')
  await refuses("INSERT INTO users (user_id, email) VALUES ('u1', 'c@x.com')", '23505', 'duplicate user id')
  await refuses(`INSERT INTO users (user_id, email) VALUES ('${'x'.repeat(256)}', 'd@x.com')`, '22001', 'user id over 255')

  await client.query("INSERT INTO banned_emails (email, reason) VALUES ('bad@x.com', 'spam')")
  await refuses("INSERT INTO banned_emails (email) VALUES ('bad@x.com')", '23505', 'duplicate ban')
  await refuses("INSERT INTO banned_emails (email) VALUES ('Mixed@X.com')", '23514', 'ban e-mail not lower-cased')

  await client.query(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('u1', 'risk_strategy', '{"enabled":true}')`)
  await refuses(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('u1', 'risk_strategy', '{}')`, '23505', 'second row for one key')
  await refuses(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('u1', 'colour', '{}')`, '23514', 'setting key outside the two allowed')
  await refuses(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('u1', 'risk_strategy', '[1]')`, '23514', 'setting value not an object')
  await refuses(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('nobody', 'risk_strategy', '{}')`, '23503', 'setting of an unknown user')

  await refuses(
    "INSERT INTO broker_credentials (user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext) VALUES ('u1', 'ib', 'demo', 'A1', 'k1', $1, $2, $3)",
    '23514',
    'unknown broker',
    [Buffer.alloc(12), Buffer.alloc(16), Buffer.alloc(4)],
  )

  const alert = "INSERT INTO alerts (alert_id, user_id, action, raw_data, is_test) VALUES ($1, $2, $3, '{}', $4)"
  await client.query(alert, ['a1', 'u1', 'LONG', false])
  await refuses(alert, '23505', 'second record for one alert and user', ['a1', 'u1', 'LONG', false])
  await refuses(alert, '23514', 'action other than LONG or SHORT', ['a2', 'u1', 'BUY', false])
  await refuses(alert, '23514', 'a test alert attached to a trader', ['a3', 'u1', 'LONG', true])
  await refuses(alert, '23514', 'a live alert without a trader', ['a4', null, 'LONG', false])
  await client.query(alert, ['a5', null, 'LONG', true])
  await refuses(alert, '23505', 'second record of one test alert', ['a5', null, 'LONG', true])

  const trade = 'INSERT INTO trades (user_id, symbol, side, quantity, entry_price, status, result, exit_price, pnl, closed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)'
  await client.query(trade, ['u1', 'NQ1!', 'LONG', 1, '21000.25', 'open', null, null, null, null])
  await refuses(trade, '23514', 'quantity zero', ['u1', 'NQ1!', 'LONG', 0, '1', 'open', null, null, null, null])
  await refuses(trade, '23514', 'result outside TP/SL/Session End', ['u1', 'NQ1!', 'LONG', 1, '1', 'closed', 'Exit', '2', '1', new Date()])
  await refuses(trade, '23514', 'closed without pnl', ['u1', 'NQ1!', 'LONG', 1, '1', 'closed', 'TP', '2', null, new Date()])
  await refuses(trade, '23514', 'unknown status', ['u1', 'NQ1!', 'LONG', 1, '1', 'pending', null, null, null, null])

  const { rows } = await client.query<{ entry_price: string }>("SELECT entry_price FROM trades WHERE symbol = 'NQ1!'")
  t.equal(rows[0]?.entry_price, '21000.25000000', 'prices are exact numerics')
})
