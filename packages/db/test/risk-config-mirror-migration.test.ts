import t from 'tap'
import type pg from 'pg'
import { migrateTo } from '../src/index.ts'
import { databaseBefore, migrationBefore } from './migration-helper.ts'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): `risk_engine_configs` and its mirror
// into the primary's `account_risk_configs` row go; a user's configuration not yet in their primary's row is
// moved first. Tested on a database at the schema before the migration, with rows written there.
const MIGRATION = '20261204120000_drop_risk_config_mirror'

const PRESET = { id: 'topstep-50k', firm: 'Topstep', plan: 'Trading Combine 50K', values: { 'dailyLossLimit.amount': 1000 } }

/**
 * ada: saved through the per-user table (mirrored), with an additional account of her own rules. bob: his
 * primary's row lost past the trigger (the data to move). dan: his primary's row differs from the per-user
 * one (the account's is what the connector traded by). eve: no primary account at all. cy: nothing saved.
 */
async function todaysRows(client: pg.Client): Promise<void> {
  await client.query("INSERT INTO users (user_id, email) VALUES ('ada', 'a@x.com'), ('bob', 'b@x.com'), ('cy', 'c@x.com'), ('dan', 'd@x.com'), ('eve', 'e@x.com')")
  await client.query(`INSERT INTO risk_engine_configs (user_id, config, preset, updated_at) VALUES
    ('ada', '{"limits":{"maxOpenTrades":2}}', $1, '2026-12-01T10:00:00Z'),
    ('bob', '{"limits":{"maxOpenTrades":3}}', $1, '2026-12-02T10:00:00Z'),
    ('dan', '{"limits":{"maxOpenTrades":4}}', NULL, '2026-12-03T10:00:00Z'),
    ('eve', '{"limits":{"maxOpenTrades":5}}', NULL, '2026-12-04T10:00:00Z')`, [JSON.stringify(PRESET)])
  const login = await client.query(`INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext)
    VALUES ('ada', 'paper', 'demo', 'EVAL2', 'k', '\\x000000000000000000000000', '\\x00000000000000000000000000000000', '\\x00') RETURNING id`)
  const second = await client.query("INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name) VALUES ('ada', $1, 'EVAL2', 'Eval 2') RETURNING id", [login.rows[0].id])
  await client.query(`INSERT INTO account_risk_configs (account_id, user_id, config) VALUES ($1, 'ada', '{"limits":{"maxOpenTrades":9}}')`, [second.rows[0].id])
  await client.query("DELETE FROM account_risk_configs WHERE user_id = 'bob'")
  await client.query(`UPDATE account_risk_configs SET config = '{"limits":{"maxOpenTrades":7}}' WHERE user_id = 'dan'`)
  await client.query("DELETE FROM broker_accounts WHERE user_id = 'eve'")
}

const CONFIGS = `SELECT a.user_id, a.is_primary, r.config, r.preset, r.updated_at FROM broker_accounts a LEFT JOIN account_risk_configs r ON r.account_id = a.id
  ORDER BY a.user_id, a.is_primary DESC`

t.test("every user's configuration is their primary's row; the per-user table, its trigger and function go", async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'riskmirror')
  await todaysRows(client)
  t.error((await migrateTo(url, MIGRATION)).error)

  const rows = (await client.query(CONFIGS)).rows
  t.same(rows, [
    { user_id: 'ada', is_primary: true, config: { limits: { maxOpenTrades: 2 } }, preset: PRESET, updated_at: new Date('2026-12-01T10:00:00Z') },
    { user_id: 'ada', is_primary: false, config: { limits: { maxOpenTrades: 9 } }, preset: null, updated_at: rows[1]?.updated_at },
    { user_id: 'bob', is_primary: true, config: { limits: { maxOpenTrades: 3 } }, preset: PRESET, updated_at: new Date('2026-12-02T10:00:00Z') },
    { user_id: 'cy', is_primary: true, config: null, preset: null, updated_at: null },
    { user_id: 'dan', is_primary: true, config: { limits: { maxOpenTrades: 7 } }, preset: null, updated_at: new Date('2026-12-03T10:00:00Z') },
    { user_id: 'eve', is_primary: true, config: { limits: { maxOpenTrades: 5 } }, preset: null, updated_at: new Date('2026-12-04T10:00:00Z') },
  ], "bob's moved with its preset origin and time; dan's account row kept; eve given a primary holding hers; the additional account untouched")

  t.equal((await client.query("SELECT to_regclass('risk_engine_configs') AS found")).rows[0].found, null, 'the per-user table is gone')
  t.equal((await client.query("SELECT count(*) FROM pg_trigger WHERE tgname = 'broker_primary_risk_config'")).rows[0].count, '0', 'its trigger')
  t.equal((await client.query("SELECT count(*) FROM pg_proc WHERE proname = 'broker_primary_risk_config'")).rows[0].count, '0', 'its function')

  await client.query("INSERT INTO users (user_id, email) VALUES ('fay', 'f@x.com')")
  t.match((await client.query("SELECT is_primary FROM broker_accounts WHERE user_id = 'fay'")).rows, [{ is_primary: true }], 'a new user still gets a primary account')
  await client.query(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES ('cy', 'live_trading', '{"enabled":true,"autoPlaceOrders":true}')`)
  t.match((await client.query("SELECT live_trading FROM broker_accounts WHERE user_id = 'cy'")).rows, [{ live_trading: true }], 'the other mirrors still work')
})

t.test("the migration undoes: the per-user table again, from each primary's row, mirrored again", async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'riskmirror')
  await todaysRows(client)
  t.error((await migrateTo(url, MIGRATION)).error)
  t.error((await migrateTo(url, await migrationBefore(MIGRATION))).error)

  const perUser = (await client.query('SELECT user_id, config, preset, updated_at FROM risk_engine_configs ORDER BY user_id')).rows
  t.same(perUser, [
    { user_id: 'ada', config: { limits: { maxOpenTrades: 2 } }, preset: PRESET, updated_at: new Date('2026-12-01T10:00:00Z') },
    { user_id: 'bob', config: { limits: { maxOpenTrades: 3 } }, preset: PRESET, updated_at: new Date('2026-12-02T10:00:00Z') },
    { user_id: 'dan', config: { limits: { maxOpenTrades: 7 } }, preset: null, updated_at: new Date('2026-12-03T10:00:00Z') },
    { user_id: 'eve', config: { limits: { maxOpenTrades: 5 } }, preset: null, updated_at: new Date('2026-12-04T10:00:00Z') },
  ], "each primary's row, not an additional account's")

  await client.query(`UPDATE risk_engine_configs SET config = '{"limits":{"maxOpenTrades":1}}' WHERE user_id = 'ada'`)
  t.same((await client.query("SELECT r.config FROM account_risk_configs r JOIN broker_accounts a ON a.id = r.account_id WHERE a.user_id = 'ada' ORDER BY a.is_primary DESC")).rows, [
    { config: { limits: { maxOpenTrades: 1 } } },
    { config: { limits: { maxOpenTrades: 9 } } },
  ], "a per-user write reaches the primary's row again, and only it")
})
