import t from 'tap'
import type pg from 'pg'
import { randomBytes } from 'node:crypto'
import { migrateTo } from '../src/index.ts'
import { databaseBefore, migrationBefore } from './migration-helper.ts'

// Issue 22, "Toward dropping the mirrors" (docs/decisions/accounts.md): the trader's broker credentials become
// their primary account's login, each brought to the credentials row first; the mirror goes and the spec's rows
// are written from the primary's login instead. Tested on a database at the schema before the migration.
const MIGRATION = '20261204140000_login_by_account'

const secret = () => ({ iv: randomBytes(12), tag: randomBytes(16), ciphertext: randomBytes(40) })
const ADA = secret()
const BOB = secret()
const BOB_PAST = secret()
const EVE = secret()
const FAY = secret()
const DAN = secret()

const CREDENTIALS = `INSERT INTO broker_credentials (user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`
const saved = (client: pg.Client, userId: string, venue: [string, string, string], keyId: string, sealed: ReturnType<typeof secret>, at: string) =>
  client.query(CREDENTIALS, [userId, ...venue, keyId, sealed.iv, sealed.tag, sealed.ciphertext, '2026-11-01T10:00:00Z', at])

/**
 * ada: saved (mirrored), with an additional account under the same login. bob: his login's secret written past
 * the trigger (the credentials row, what the connector opened, wins). fay: her row turned to another broker
 * past the trigger while her additional account uses the login (she gets a login of her own, the account keeps
 * the old). eve: credentials but no primary account. dan: a linked primary whose row was deleted past the
 * trigger (he had no credentials). cy: never saved any.
 */
async function todaysRows(client: pg.Client): Promise<void> {
  await client.query("INSERT INTO users (user_id, email) VALUES ('ada', 'a@x.com'), ('bob', 'b@x.com'), ('cy', 'c@x.com'), ('dan', 'd@x.com'), ('eve', 'e@x.com'), ('fay', 'f@x.com')")
  await saved(client, 'ada', ['tradovate', 'live', 'ADA1'], 'k1', ADA, '2026-12-01T10:00:00Z')
  await saved(client, 'bob', ['paper', 'demo', 'BOB1'], 'k1', BOB, '2026-12-02T10:00:00Z')
  await saved(client, 'eve', ['projectx', 'demo', 'EVE1'], 'k1', EVE, '2026-12-03T10:00:00Z')
  await saved(client, 'fay', ['paper', 'demo', 'FAY1'], 'k1', FAY, '2026-12-04T10:00:00Z')
  await saved(client, 'dan', ['paper', 'demo', 'DAN1'], 'k1', DAN, '2026-12-05T10:00:00Z')
  await client.query("INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name) SELECT user_id, login_id, 'EVAL2', 'Eval 2' FROM broker_accounts WHERE user_id IN ('ada', 'fay')")
  await client.query("UPDATE broker_logins SET key_id = 'k0', secret_iv = $1, secret_tag = $2, secret_ciphertext = $3 WHERE user_id = 'bob'", [BOB_PAST.iv, BOB_PAST.tag, BOB_PAST.ciphertext])
  await client.query("DELETE FROM broker_accounts WHERE user_id = 'eve'")
  await client.query('ALTER TABLE broker_credentials DISABLE TRIGGER broker_primary_login')
  await client.query("UPDATE broker_credentials SET broker = 'projectx', environment = 'live' WHERE user_id = 'fay'")
  await client.query("DELETE FROM broker_credentials WHERE user_id = 'dan'")
  await client.query('ALTER TABLE broker_credentials ENABLE TRIGGER broker_primary_login')
}

/** Each primary's login as the spec's credentials row would hold it. */
const PRIMARY_LOGINS = `SELECT a.user_id, l.broker, l.environment, a.broker_account_ref AS account_id, l.bound_account_ref, l.key_id,
  l.secret_iv, l.secret_tag, l.secret_ciphertext, l.updated_at
  FROM broker_accounts a JOIN broker_logins l ON l.id = a.login_id WHERE a.is_primary ORDER BY a.user_id`
const SPEC_ROWS = `SELECT user_id, broker, environment, account_id, account_id AS bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext, updated_at
  FROM broker_credentials ORDER BY user_id`

t.test("every trader's credentials are their primary's login; the mirror goes, the spec's rows are written from the login", async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'loginmirror')
  await todaysRows(client)
  const before = (await client.query(SPEC_ROWS)).rows
  t.error((await migrateTo(url, MIGRATION)).error)

  const logins = (await client.query(PRIMARY_LOGINS)).rows
  t.same(logins, before, "each primary's login holds its trader's credentials row, byte for byte (bob's, fay's and eve's brought to it)")
  t.same(logins.map((row) => row.user_id), ['ada', 'bob', 'eve', 'fay'], 'cy and dan have none')
  t.same((await client.query(SPEC_ROWS)).rows, before, "the spec's rows are kept as they were")
  t.match((await client.query("SELECT user_id, is_primary, broker_account_ref FROM broker_accounts WHERE user_id IN ('dan', 'eve') ORDER BY user_id")).rows, [
    { user_id: 'dan', is_primary: true, broker_account_ref: null },
    { user_id: 'eve', is_primary: true, broker_account_ref: 'EVE1' },
  ], "dan's primary unlinked (his row was deleted); eve given a primary holding hers")
  t.equal((await client.query("SELECT count(*) FROM broker_logins WHERE user_id = 'dan'")).rows[0].count, '0', "dan's unused login went, as the trigger's delete would have done")

  const eval2 = `SELECT a.user_id, l.broker, l.environment, l.key_id, l.secret_ciphertext FROM broker_accounts a JOIN broker_logins l ON l.id = a.login_id
    WHERE NOT a.is_primary ORDER BY a.user_id`
  t.same((await client.query(eval2)).rows, [
    { user_id: 'ada', broker: 'tradovate', environment: 'live', key_id: 'k1', secret_ciphertext: ADA.ciphertext },
    { user_id: 'fay', broker: 'paper', environment: 'demo', key_id: 'k1', secret_ciphertext: FAY.ciphertext },
  ], "ada's additional account shares her login; fay's keeps the old login, her primary has a new one")

  t.equal((await client.query("SELECT count(*) FROM pg_trigger WHERE tgname = 'broker_primary_login'")).rows[0].count, '0', 'the trigger is gone')
  t.equal((await client.query("SELECT count(*) FROM pg_proc WHERE proname = 'broker_primary_login'")).rows[0].count, '0', 'its function')

  await client.query("UPDATE broker_credentials SET key_id = 'by-hand' WHERE user_id = 'bob'")
  await client.query("DELETE FROM broker_credentials WHERE user_id = 'ada'")
  t.same((await client.query(PRIMARY_LOGINS)).rows, logins, 'a row written or deleted by hand changes no login')

  // The triggers the other way: the primary's login written is the spec's row.
  const fresh = secret()
  await client.query("UPDATE broker_logins l SET key_id = 'k2', secret_ciphertext = $1, updated_at = '2026-12-06T10:00:00Z' FROM broker_accounts a WHERE a.login_id = l.id AND a.user_id = 'bob' AND a.is_primary", [fresh.ciphertext])
  await client.query("UPDATE broker_logins l SET key_id = 'k3' FROM broker_accounts a WHERE a.login_id = l.id AND a.user_id = 'fay' AND NOT a.is_primary")
  const cyLogin = await client.query(`INSERT INTO broker_logins (user_id, broker, environment, bound_account_ref, key_id, secret_iv, secret_tag, secret_ciphertext, created_at, updated_at)
    VALUES ('cy', 'paper', 'demo', 'CY1', 'k2', $1, $2, $3, '2026-12-07T09:00:00Z', '2026-12-07T10:00:00Z') RETURNING id`, [fresh.iv, fresh.tag, fresh.ciphertext])
  await client.query("UPDATE broker_accounts SET login_id = $1, broker_account_ref = 'CY1' WHERE user_id = 'cy' AND is_primary", [cyLogin.rows[0].id])
  await client.query("UPDATE broker_accounts SET login_id = NULL, broker_account_ref = NULL WHERE user_id = 'eve' AND is_primary")
  await client.query("UPDATE broker_accounts SET name = 'Renamed' WHERE user_id = 'ada' AND is_primary")
  const specRows = (await client.query(SPEC_ROWS)).rows
  t.same(specRows, (await client.query(PRIMARY_LOGINS)).rows.filter((row) => row.user_id !== 'ada'), "the spec's rows are the primaries' logins again: bob's new secret, cy's first login, eve's removed")
  t.match(specRows, [{ user_id: 'bob', key_id: 'k2' }, { user_id: 'cy', key_id: 'k2', account_id: 'CY1' }, { user_id: 'fay', key_id: 'k1' }], "an additional account's login is not the trader's credentials")
  t.same((await client.query("SELECT created_at FROM broker_credentials WHERE user_id = 'cy'")).rows, [{ created_at: new Date('2026-12-07T09:00:00Z') }], "a new row takes the login's creation time")

  await client.query("INSERT INTO users (user_id, email) VALUES ('gus', 'g@x.com')")
  t.match((await client.query("SELECT is_primary, login_id FROM broker_accounts WHERE user_id = 'gus'")).rows, [{ is_primary: true, login_id: null }], 'a new user still gets a primary account, without a login')
  await client.query("DELETE FROM users WHERE user_id IN ('bob', 'fay')")
  t.same((await client.query('SELECT user_id FROM broker_credentials ORDER BY user_id')).rows, [{ user_id: 'cy' }], "a user's removal takes their rows with it")
})

t.test('the migration undoes: the spec rows as each primary login has them, mirrored into the login again', async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'loginmirror')
  await todaysRows(client)
  t.error((await migrateTo(url, MIGRATION)).error)
  await client.query("UPDATE broker_logins l SET key_id = 'k5' FROM broker_accounts a WHERE a.login_id = l.id AND a.user_id = 'ada' AND a.is_primary")
  await client.query("DELETE FROM broker_credentials WHERE user_id = 'bob'") // by hand: put back from bob's login on the way down
  t.error((await migrateTo(url, await migrationBefore(MIGRATION))).error)

  t.same((await client.query(SPEC_ROWS)).rows, (await client.query(PRIMARY_LOGINS)).rows, "each primary's login is its trader's row")
  t.match((await client.query(SPEC_ROWS)).rows, [{ user_id: 'ada', key_id: 'k5' }, { user_id: 'bob' }, { user_id: 'eve' }, { user_id: 'fay' }])

  await client.query("UPDATE broker_credentials SET key_id = 'k6' WHERE user_id = 'ada'")
  t.same((await client.query("SELECT l.key_id FROM broker_accounts a JOIN broker_logins l ON l.id = a.login_id WHERE a.user_id = 'ada' ORDER BY a.is_primary DESC")).rows, [{ key_id: 'k6' }, { key_id: 'k6' }], 'a credentials write reaches the login again')
  t.equal((await client.query("SELECT count(*) FROM pg_trigger WHERE tgname LIKE '%credentials_row%'")).rows[0].count, '0', 'the triggers the other way are gone')
})
