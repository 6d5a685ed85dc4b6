import t, { type Test } from 'tap'
import pg from 'pg'
import { createTestDatabase } from '@signals/test-support'
import { databaseBefore } from './migration-helper.ts'

// Migration 20261203010000_fanout_account_index (docs/decisions/fanout-speed.md): the fan-out's records have no
// index of their own by account, and the live-trading mirror looks the trader's primary up once per write.

async function client(t: Test): Promise<pg.Client> {
  const database = await createTestDatabase()
  const connection = new pg.Client({ connectionString: database.url })
  await connection.connect()
  t.teardown(async () => {
    await connection.end()
    await database.drop()
  })
  return connection
}

t.test("a live-trading write looks its trader's primary up once, not once per account on the server", async (t) => {
  // The mirror lived until 20261204130000_live_trading_by_account: tested at the schema before it.
  const { client: db } = await databaseBefore(t, '20261204130000_live_trading_by_account', 'fanoutmirror')
  await db.query("INSERT INTO users (user_id, email) SELECT 'u' || g, 'u' || g || '@x.com' FROM generate_series(1, 20) g")
  await db.query('BEGIN')
  // Counts the plpgsql function's calls in this transaction (pg_stat_xact_user_functions).
  await db.query("SET LOCAL track_functions = 'pl'")
  await db.query(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('u7', 'live_trading', '{"enabled": true, "autoPlaceOrders": true}')`)
  const calls = await db.query("SELECT calls FROM pg_stat_xact_user_functions WHERE funcname = 'broker_primary_account'")
  await db.query('COMMIT')
  t.equal(Number(calls.rows[0]?.calls), 1, 'one look-up (it was called for each of the 20 accounts, a scan of them all)')
  const mirrored = await db.query('SELECT user_id, live_trading, auto_place FROM broker_accounts WHERE live_trading OR auto_place')
  t.same(mirrored.rows, [{ user_id: 'u7', live_trading: true, auto_place: true }], "the trader's primary mirrors it, no other account")

  await db.query(`UPDATE trading_settings SET setting_value = '{"enabled": false, "autoPlaceOrders": true}' WHERE user_id = 'u7'`)
  const after = await db.query("SELECT live_trading, auto_place FROM broker_accounts WHERE user_id = 'u7' AND is_primary")
  t.same(after.rows, [{ live_trading: false, auto_place: true }], 'an update mirrors as before')
})

t.test("records have no index by account; a removed account's records are unlinked through their trader's index", async (t) => {
  const db = await client(t)
  const indexes = await db.query("SELECT indexname FROM pg_indexes WHERE tablename = 'alerts' AND indexdef LIKE '%account_id%'")
  t.same(indexes.rows, [], 'no index on alerts names account_id (the fan-out wrote each record into one at a random place)')

  await db.query("INSERT INTO users (user_id, email) VALUES ('ada', 'a@x.com'), ('bob', 'b@x.com')")
  const login = await db.query(`INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext)
    VALUES ('ada', 'paper', 'demo', 'EVAL2', 'k', '\\x000000000000000000000000', '\\x00000000000000000000000000000000', '\\x00') RETURNING id`)
  const second = (await db.query("INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name) VALUES ('ada', $1, 'EVAL2', 'Eval 2') RETURNING id", [login.rows[0].id])).rows[0].id as string
  await db.query("INSERT INTO alerts (alert_id, user_id, account_id, raw_data) SELECT 'a1', user_id, id, '{}' FROM broker_accounts WHERE is_primary")
  await db.query("INSERT INTO alerts (alert_id, user_id, account_id, raw_data) VALUES ('a2', 'ada', $1, '{}')", [second])

  await db.query('DELETE FROM broker_accounts WHERE id = $1', [second])
  const records = await db.query('SELECT alert_id, user_id, account_id IS NOT NULL AS linked FROM alerts ORDER BY alert_id, user_id')
  t.same(records.rows, [
    { alert_id: 'a1', user_id: 'ada', linked: true },
    { alert_id: 'a1', user_id: 'bob', linked: true },
    { alert_id: 'a2', user_id: 'ada', linked: false },
  ], "only the removed account's record loses its account; the record stays the trader's")
})
