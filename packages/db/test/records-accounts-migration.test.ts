import t from 'tap'
import type pg from 'pg'
import { randomBytes } from 'node:crypto'
import { migrateTo, migrateToLatest } from '../src/index.ts'
import { databaseBefore, migrationBefore } from './migration-helper.ts'

// Issue 22 item 1 (stage 3a): alert records and trades carry their account; every existing row of a trader
// gets the trader's primary account. Tested on a database at the schema before the migration, with rows.
const MIGRATION = '20261202010000_records_accounts'

/** Today's rows: two traders (one with a second account), their records and trades, a test record. */
async function todaysRows(client: pg.Client): Promise<void> {
  await client.query("INSERT INTO users (user_id, email) VALUES ('ada', 'a@x.com'), ('bob', 'b@x.com')")
  const iv = randomBytes(12)
  const tag = randomBytes(16)
  await client.query(
    `INSERT INTO broker_credentials (user_id, broker, environment, account_id, key_id, secret_iv, secret_tag, secret_ciphertext)
     VALUES ('ada', 'paper', 'demo', 'DEMO1', 'k1', $1, $2, $3)`,
    [iv, tag, randomBytes(40)],
  )
  const login = (await client.query("SELECT login_id FROM broker_accounts WHERE user_id = 'ada' AND is_primary")).rows[0].login_id as string
  await client.query("INSERT INTO broker_accounts (user_id, login_id, broker_account_ref, name) VALUES ('ada', $1, 'EVAL2', 'Eval 2')", [login])
  await client.query(`INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, action, raw_data, status) VALUES
    ('a1', 'ada', 'ada', 'MNQ1!', 'LONG', '{}', 'placed'),
    ('a1', 'bob', 'ada', 'MNQ1!', 'LONG', '{}', 'refused')`)
  await client.query("INSERT INTO alerts (alert_id, user_id, owner_user_id, raw_data, is_test, status) VALUES ('t1', NULL, 'ada', '{}', true, 'test')")
  const record = (await client.query("SELECT id FROM alerts WHERE alert_id = 'a1' AND user_id = 'ada'")).rows[0].id as string
  await client.query(
    `INSERT INTO trades (user_id, alert_record_id, symbol, side, quantity, entry_price, status) VALUES ('ada', $1, 'MNQ1!', 'LONG', 1, 21000, 'open'),
     ('bob', NULL, 'ES1!', 'SHORT', 2, 6000, 'open')`,
    [record],
  )
  await client.query(`INSERT INTO trades (user_id, symbol, side, quantity, entry_price, exit_price, status, result, pnl, closed_at)
    VALUES ('bob', 'ES1!', 'SHORT', 1, 6000, 5990, 'closed', 'TP', 500, now())`)
}

const primaryOf = async (client: pg.Client, userId: string) =>
  (await client.query('SELECT id FROM broker_accounts WHERE user_id = $1 AND is_primary', [userId])).rows[0].id as string

t.test("every trader's records and trades get the trader's primary account; a test record none", async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'records')
  await todaysRows(client)
  // This migration itself: 20261203010000 drops the records' account index (fanout-account-index-migration.test.ts).
  t.error((await migrateTo(url, MIGRATION)).error)
  const ada = await primaryOf(client, 'ada')
  const bob = await primaryOf(client, 'bob')

  const records = (await client.query('SELECT alert_id, user_id, account_id FROM alerts ORDER BY id')).rows
  t.same(records, [
    { alert_id: 'a1', user_id: 'ada', account_id: ada },
    { alert_id: 'a1', user_id: 'bob', account_id: bob },
    { alert_id: 't1', user_id: null, account_id: null },
  ])
  const trades = (await client.query('SELECT user_id, status, account_id FROM trades ORDER BY id')).rows
  t.same(trades, [
    { user_id: 'ada', status: 'open', account_id: ada },
    { user_id: 'bob', status: 'open', account_id: bob },
    { user_id: 'bob', status: 'closed', account_id: bob },
  ], 'trades with and without an alert record, open and closed')
  t.equal((await client.query("SELECT count(*) FROM alerts WHERE account_id = (SELECT id FROM broker_accounts WHERE name = 'Eval 2')")).rows[0].count, '0', 'nothing lands on an additional account')

  const indexes = (await client.query("SELECT indexname FROM pg_indexes WHERE indexname IN ('alerts_account_recent_idx', 'trades_account_recent_idx') ORDER BY 1")).rows
  t.same(indexes.map((row) => row.indexname), ['alerts_account_recent_idx', 'trades_account_recent_idx'])

  t.error((await migrateTo(url, await migrationBefore(MIGRATION))).error, 'the migration undoes')
  t.equal((await client.query("SELECT count(*) FROM pg_trigger WHERE tgname = 'broker_account_unlink_records'")).rows[0].count, '0', 'its trigger too')
  const columns = await client.query("SELECT count(*) FROM information_schema.columns WHERE table_name IN ('alerts', 'trades') AND column_name = 'account_id'")
  t.equal(columns.rows[0].count, '0')
  t.equal((await client.query('SELECT count(*) FROM alerts')).rows[0].count, '3', 'and keeps every row')
})

t.test('a removed account leaves its records and trades with the trader, without the account', async (t) => {
  const { client, url } = await databaseBefore(t, MIGRATION, 'records')
  await todaysRows(client)
  t.error((await migrateToLatest(url)).error)
  const second = (await client.query("SELECT id FROM broker_accounts WHERE name = 'Eval 2'")).rows[0].id as string
  const record = await client.query("INSERT INTO alerts (alert_id, user_id, account_id, raw_data) VALUES ('a2', 'ada', $1, '{}') RETURNING id", [second])
  await client.query("INSERT INTO trades (user_id, account_id, alert_record_id, symbol, side, quantity, entry_price) VALUES ('ada', $1, $2, 'MNQ1!', 'LONG', 1, 21000)", [second, record.rows[0].id])

  await client.query('DELETE FROM broker_accounts WHERE id = $1', [second])
  t.same((await client.query("SELECT user_id, account_id FROM alerts WHERE alert_id = 'a2'")).rows, [{ user_id: 'ada', account_id: null }])
  t.same((await client.query('SELECT user_id, account_id FROM trades WHERE alert_record_id = $1', [record.rows[0].id])).rows, [{ user_id: 'ada', account_id: null }])
  await t.rejects(
    client.query("INSERT INTO trades (user_id, account_id, symbol, side, quantity, entry_price) VALUES ('ada', gen_random_uuid(), 'MNQ1!', 'LONG', 1, 21000)"),
    { code: '23503' },
    'a trade on an account that does not exist is refused (a foreign key; records have none: the fan-out takes their ids from broker_accounts)',
  )
  await client.query("DELETE FROM users WHERE user_id = 'ada'")
  t.equal((await client.query("SELECT count(*) FROM alerts WHERE user_id = 'ada'")).rows[0].count, '0', "a deleted trader's records go with them, the unlinking trigger beside the cascade")
})
