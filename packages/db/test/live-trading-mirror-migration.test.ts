import t from 'tap'
import type pg from 'pg'
import { migrateTo } from '../src/index.ts'
import { databaseBefore, migrationBefore } from './migration-helper.ts'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the spec's live_trading setting becomes
// the primary account's switches, each moved into the primary first (with its time); the mirror goes and the
// spec's rows are written from the primary's switches instead. Tested on a database at the schema before the migration, with rows written there.
const MIGRATION = '20261204130000_live_trading_by_account'

/**
 * ada: live, auto-place on, mirrored, with an additional account of her own switches. bob: his primary
 * switched past the trigger (the setting, what the connector traded by, wins). eve: no primary account at all.
 * cy: no setting (never read her settings). dan: only a risk_strategy setting.
 */
async function todaysRows(client: pg.Client): Promise<void> {
  await client.query("INSERT INTO users (user_id, email) VALUES ('ada', 'a@x.com'), ('bob', 'b@x.com'), ('cy', 'c@x.com'), ('dan', 'd@x.com'), ('eve', 'e@x.com')")
  await client.query(`INSERT INTO trading_settings (user_id, setting_key, setting_value, updated_at) VALUES
    ('ada', 'live_trading', '{"enabled":true,"autoPlaceOrders":true}', '2026-12-01T10:00:00Z'),
    ('bob', 'live_trading', '{"enabled":false,"autoPlaceOrders":true}', '2026-12-02T10:00:00Z'),
    ('eve', 'live_trading', '{"enabled":true}', '2026-12-04T10:00:00Z'),
    ('dan', 'risk_strategy', '{"enabled":true,"type":"legacy","portfolioBalance":1000,"riskPercent":2,"maxContracts":3}', '2026-12-03T10:00:00Z')`)
  const login = await client.query(`INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext)
    VALUES ('ada', 'paper', 'demo', 'EVAL2', 'k', '\\x000000000000000000000000', '\\x00000000000000000000000000000000', '\\x00') RETURNING id`)
  await client.query("INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name, auto_place) VALUES ('ada', $1, 'EVAL2', 'Eval 2', true)", [login.rows[0].id])
  await client.query("UPDATE broker_accounts SET live_trading = true, auto_place = false WHERE user_id = 'bob'")
  await client.query("DELETE FROM broker_accounts WHERE user_id = 'eve'")
}

const SWITCHES = 'SELECT user_id, is_primary, live_trading, auto_place, switches_updated_at FROM broker_accounts ORDER BY user_id, is_primary DESC'

t.test("every trader's setting is their primary's switches; the rows, the trigger and its function go", async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'livemirror')
  await todaysRows(client)
  t.error((await migrateTo(url, MIGRATION)).error)

  t.same((await client.query(SWITCHES)).rows, [
    { user_id: 'ada', is_primary: true, live_trading: true, auto_place: true, switches_updated_at: new Date('2026-12-01T10:00:00Z') },
    { user_id: 'ada', is_primary: false, live_trading: false, auto_place: true, switches_updated_at: null },
    { user_id: 'bob', is_primary: true, live_trading: false, auto_place: true, switches_updated_at: new Date('2026-12-02T10:00:00Z') },
    { user_id: 'cy', is_primary: true, live_trading: false, auto_place: false, switches_updated_at: null },
    { user_id: 'dan', is_primary: true, live_trading: false, auto_place: false, switches_updated_at: null },
    { user_id: 'eve', is_primary: true, live_trading: true, auto_place: false, switches_updated_at: new Date('2026-12-04T10:00:00Z') },
  ], "the setting and its time moved; bob's account follows his setting; eve given a primary holding hers; the additional account untouched")

  t.same((await client.query('SELECT user_id, setting_key FROM trading_settings ORDER BY user_id, setting_key')).rows, [
    { user_id: 'ada', setting_key: 'live_trading' },
    { user_id: 'bob', setting_key: 'live_trading' },
    { user_id: 'dan', setting_key: 'risk_strategy' },
    { user_id: 'eve', setting_key: 'live_trading' },
  ], "the spec's table keeps its rows")
  t.equal((await client.query("SELECT count(*) FROM pg_trigger WHERE tgname = 'broker_primary_live_trading'")).rows[0].count, '0', 'the trigger is gone')
  t.equal((await client.query("SELECT count(*) FROM pg_proc WHERE proname = 'broker_primary_live_trading'")).rows[0].count, '0', 'its function')
  await client.query(`UPDATE trading_settings SET setting_value = '{"enabled":false,"autoPlaceOrders":false}' WHERE user_id = 'ada' AND setting_key = 'live_trading'`)
  t.match((await client.query("SELECT live_trading FROM broker_accounts WHERE user_id = 'ada' AND is_primary")).rows, [{ live_trading: true }], 'a row written by hand changes no switch')

  await client.query("UPDATE broker_accounts SET live_trading = false, switches_updated_at = '2026-12-06T10:00:00Z' WHERE user_id = 'ada' AND is_primary")
  await client.query("UPDATE broker_accounts SET live_trading = true, switches_updated_at = '2026-12-06T11:00:00Z' WHERE user_id = 'cy' AND is_primary")
  await client.query("UPDATE broker_accounts SET auto_place = false WHERE user_id = 'ada' AND NOT is_primary")
  t.same((await client.query("SELECT user_id, setting_value, updated_at FROM trading_settings WHERE setting_key = 'live_trading' AND user_id IN ('ada', 'cy') ORDER BY user_id")).rows, [
    { user_id: 'ada', setting_value: { enabled: false, autoPlaceOrders: true }, updated_at: new Date('2026-12-06T10:00:00Z') },
    { user_id: 'cy', setting_value: { enabled: true, autoPlaceOrders: false }, updated_at: new Date('2026-12-06T11:00:00Z') },
  ], "a primary's switches saved are the spec's row (made when missing); an additional account's are not")
  t.same((await client.query("SELECT indexname FROM pg_indexes WHERE indexname IN ('broker_accounts_live_primary_idx', 'trading_settings_live_users_idx')")).rows, [{ indexname: 'broker_accounts_live_primary_idx' }], "the live primaries' index replaces the setting's")

  await client.query("INSERT INTO users (user_id, email) VALUES ('fay', 'f@x.com')")
  t.match((await client.query("SELECT is_primary, live_trading, switches_updated_at FROM broker_accounts WHERE user_id = 'fay'")).rows, [{ is_primary: true, live_trading: false, switches_updated_at: null }], 'a new user still gets a primary account, switched off')
})

t.test('the migration undoes: the setting rows again, from each primary that had one, mirrored again', async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'livemirror')
  await todaysRows(client)
  t.error((await migrateTo(url, MIGRATION)).error)
  await client.query("UPDATE broker_accounts SET auto_place = false, switches_updated_at = '2026-12-05T10:00:00Z' WHERE user_id = 'ada' AND is_primary")
  t.error((await migrateTo(url, await migrationBefore(MIGRATION))).error)

  t.same((await client.query("SELECT user_id, setting_value, updated_at FROM trading_settings WHERE setting_key = 'live_trading' ORDER BY user_id")).rows, [
    { user_id: 'ada', setting_value: { enabled: true, autoPlaceOrders: false }, updated_at: new Date('2026-12-05T10:00:00Z') },
    { user_id: 'bob', setting_value: { enabled: false, autoPlaceOrders: true }, updated_at: new Date('2026-12-02T10:00:00Z') },
    { user_id: 'eve', setting_value: { enabled: true, autoPlaceOrders: false }, updated_at: new Date('2026-12-04T10:00:00Z') },
  ], "each primary's switches as saved after the migration; no row for a trader who never had one")

  await client.query(`UPDATE trading_settings SET setting_value = '{"enabled":false,"autoPlaceOrders":false}' WHERE user_id = 'ada' AND setting_key = 'live_trading'`)
  t.same((await client.query("SELECT live_trading, auto_place FROM broker_accounts WHERE user_id = 'ada' ORDER BY is_primary DESC")).rows, [
    { live_trading: false, auto_place: false },
    { live_trading: false, auto_place: true },
  ], "a setting write reaches the primary again, and only it")
})
