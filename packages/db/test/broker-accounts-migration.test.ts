import t from 'tap'
import type pg from 'pg'
import { randomBytes } from 'node:crypto'
import { migrateTo } from '../src/index.ts'
import { databaseBefore, migrationBefore } from './migration-helper.ts'

// Issue 22 item 9: every existing user's credentials, live-trading switches and risk configuration move to
// their primary account, nothing lost. Tested on a database at the schema before the migration, with rows.
const MIGRATION = '20261201010000_broker_accounts'

const SECRET = { iv: randomBytes(12), tag: randomBytes(16), ciphertext: randomBytes(90) }

async function todaysRows(client: pg.Client): Promise<void> {
  await client.query("INSERT INTO users (user_id, email) VALUES ('linked', 'a@x.com'), ('unlinked', 'b@x.com'), ('blank', 'c@x.com')")
  await client.query(
    `INSERT INTO broker_credentials (user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at)
     VALUES ('linked', 'tradovate', 'live', 'DEMO123', 'k2', $1, $2, $3, '2026-11-01T10:00:00Z', '2026-11-02T10:00:00Z')`,
    [SECRET.iv, SECRET.tag, SECRET.ciphertext],
  )
  await client.query(`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES
    ('linked', 'live_trading', '{"enabled":true,"autoPlaceOrders":true}'),
    ('linked', 'risk_strategy', '{"strategy":"fixed"}'),
    ('unlinked', 'live_trading', '{"enabled":false,"autoPlaceOrders":true}')`)
  await client.query(`INSERT INTO risk_engine_configs (user_id, config, preset, updated_at) VALUES
    ('linked', '{"sizing":{"contracts":3}}', '{"id":"topstep-50k","firm":"Topstep","plan":"50K","values":{}}', '2026-11-03T10:00:00Z'),
    ('unlinked', '{"sizing":{"contracts":1}}', NULL, '2026-11-04T10:00:00Z')`)
}

const ACCOUNTS = `SELECT a.user_id, a.name, a.is_primary, a.live_trading, a.auto_place, a.broker_account_ref, l.broker, l.environment,
  l.bound_account_ref, l.key_id, l.secret_iv, l.secret_tag, l.secret_ciphertext, l.created_at AS login_created_at, l.updated_at AS login_updated_at,
  r.config, r.preset, r.updated_at AS config_updated_at
  FROM broker_accounts a LEFT JOIN broker_logins l ON l.id = a.login_id LEFT JOIN account_risk_configs r ON r.account_id = a.id
  WHERE a.user_id = $1 ORDER BY a.is_primary DESC, a.created_at`

t.test('each user gets one primary account holding their credentials, switches and risk configuration', async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'accounts')
  await todaysRows(client)
  // This migration itself: 20261204120000 drops risk_engine_configs (risk-config-mirror-migration.test.ts).
  const result = await migrateTo(url, MIGRATION)
  t.error(result.error)

  const linked = (await client.query(ACCOUNTS, ['linked'])).rows
  t.equal(linked.length, 1, 'one account for the user with credentials')
  t.match(linked[0], { name: 'Primary', is_primary: true, live_trading: true, auto_place: true, broker_account_ref: 'DEMO123', broker: 'tradovate', environment: 'live', bound_account_ref: 'DEMO123', key_id: 'k2' })
  t.ok(SECRET.iv.equals(linked[0].secret_iv) && SECRET.tag.equals(linked[0].secret_tag) && SECRET.ciphertext.equals(linked[0].secret_ciphertext), 'the sealed secret is copied byte for byte')
  t.equal(linked[0].login_created_at.toISOString(), '2026-11-01T10:00:00.000Z')
  t.equal(linked[0].login_updated_at.toISOString(), '2026-11-02T10:00:00.000Z')
  t.same(linked[0].config, { sizing: { contracts: 3 } })
  t.same(linked[0].preset, { id: 'topstep-50k', firm: 'Topstep', plan: '50K', values: {} }, 'the preset origin moves with the configuration')
  t.equal(linked[0].config_updated_at.toISOString(), '2026-11-03T10:00:00.000Z')

  const unlinked = (await client.query(ACCOUNTS, ['unlinked'])).rows
  t.equal(unlinked.length, 1)
  t.match(unlinked[0], { is_primary: true, live_trading: false, auto_place: true, broker_account_ref: null, broker: null })
  t.same(unlinked[0].config, { sizing: { contracts: 1 } }, 'a configuration without credentials is kept too')

  const blank = (await client.query(ACCOUNTS, ['blank'])).rows
  t.match(blank, [{ is_primary: true, live_trading: false, auto_place: false, broker: null, config: null }])

  const old = await client.query("SELECT (SELECT count(*) FROM broker_credentials) AS credentials, (SELECT count(*) FROM trading_settings) AS settings, (SELECT count(*) FROM risk_engine_configs) AS configs")
  t.same(old.rows[0], { credentials: '1', settings: '3', configs: '2' }, 'the per-user tables keep every row (the connector still reads them)')

  t.error((await migrateTo(url, await migrationBefore(MIGRATION))).error, 'the migration undoes')
  t.equal((await client.query("SELECT to_regclass('broker_accounts') AS found")).rows[0].found, null)
  await client.query(`UPDATE trading_settings SET setting_value = '{"enabled":false,"autoPlaceOrders":false}' WHERE user_id = 'linked' AND setting_key = 'live_trading'`)
  t.pass('no trigger is left behind on the per-user tables')
})

t.test('writes to the per-user tables reach the primary account, whoever makes them', async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'accounts')
  await todaysRows(client)
  t.error((await migrateTo(url, MIGRATION)).error)

  // The admin's ban and the kill switch write trading_settings directly.
  await client.query(`UPDATE trading_settings SET setting_value = '{"enabled":false,"autoPlaceOrders":false}' WHERE user_id = 'linked' AND setting_key = 'live_trading'`)
  t.match((await client.query(ACCOUNTS, ['linked'])).rows[0], { live_trading: false, auto_place: false })

  await client.query(`UPDATE risk_engine_configs SET config = '{"sizing":{"contracts":5}}' WHERE user_id = 'linked'`)
  t.same((await client.query(ACCOUNTS, ['linked'])).rows[0].config, { sizing: { contracts: 5 } })
  await client.query(`INSERT INTO risk_engine_configs (user_id, config) VALUES ('blank', '{"a":1}')`)
  t.same((await client.query(ACCOUNTS, ['blank'])).rows[0].config, { a: 1 })

  await client.query(
    `INSERT INTO broker_credentials (user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext)
     VALUES ('blank', 'paper', 'demo', 'P1', 'k2', $1, $2, $3)`,
    [SECRET.iv, SECRET.tag, SECRET.ciphertext],
  )
  t.match((await client.query(ACCOUNTS, ['blank'])).rows, [{ is_primary: true, broker: 'paper', broker_account_ref: 'P1', bound_account_ref: 'P1' }], 'first credentials link the primary')

  // A second account under the linked user's login; a new password serves both.
  const login = (await client.query("SELECT login_id FROM broker_accounts WHERE user_id = 'linked'")).rows[0].login_id as string
  await client.query("INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name) VALUES ('linked', $1, 'EVAL2', 'Eval 2')", [login])
  await client.query("UPDATE broker_credentials SET key_id = 'k3', account_id = 'DEMO124' WHERE user_id = 'linked'")
  const both = (await client.query(ACCOUNTS, ['linked'])).rows
  t.match(both, [{ is_primary: true, broker_account_ref: 'DEMO124', key_id: 'k3' }, { is_primary: false, broker_account_ref: 'EVAL2', key_id: 'k3' }])

  // Another broker for the primary: the second account keeps the old login.
  await client.query("UPDATE broker_credentials SET broker = 'paper', environment = 'demo' WHERE user_id = 'linked'")
  const moved = (await client.query(ACCOUNTS, ['linked'])).rows
  t.match(moved, [{ is_primary: true, broker: 'paper' }, { is_primary: false, broker: 'tradovate', key_id: 'k3' }])

  await client.query("DELETE FROM broker_credentials WHERE user_id = 'blank'")
  t.match((await client.query(ACCOUNTS, ['blank'])).rows, [{ is_primary: true, broker: null, broker_account_ref: null }], 'deleted credentials unlink the primary')
  t.equal((await client.query("SELECT count(*) FROM broker_logins WHERE user_id = 'blank'")).rows[0].count, '0', 'and its unused login goes')

  await client.query("INSERT INTO users (user_id, email) VALUES ('newcomer', 'n@x.com')")
  t.match((await client.query(ACCOUNTS, ['newcomer'])).rows, [{ is_primary: true, name: 'Primary' }], 'a new user has a primary account')

  await t.rejects(client.query("UPDATE broker_accounts SET live_trading = true WHERE user_id = 'linked' AND NOT is_primary"), { code: '23514' }, 'an additional account cannot go live yet')
  await t.rejects(client.query("INSERT INTO broker_accounts (user_id, name, is_primary) VALUES ('linked', 'Second primary', true)"), { code: '23505' }, 'one primary per user')

  await client.query("DELETE FROM users WHERE user_id = 'linked'")
  t.equal((await client.query("SELECT count(*) FROM broker_accounts WHERE user_id = 'linked'")).rows[0].count, '0', "a deleted user's accounts go with them")
})
