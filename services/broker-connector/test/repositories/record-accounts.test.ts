import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { insertTestRecord, recordEntryAlert } from '../../src/repositories/alerts.ts'
import { applyEntryFill } from '../../src/repositories/broker-trades.ts'
import { closePart, lockRecordTrade } from '../../src/repositories/trade-exits.ts'
import { build, makeAlert, seedUsers } from '../helper.ts'
import { additionalAccount } from './additional-account.ts'

// Issue 22 item 1, stage 3a (docs/decisions/accounts.md): every record and trade the connector writes names
// the broker account it is for. Only a trader's primary account trades today, so fan-out and targeted
// records name the primary; a trade takes its record's account, a closed part its trade's.

const accountsOf = async (db: Kysely<Database>, userId: string) => {
  const rows = await db.selectFrom('broker_accounts').select(['id', 'is_primary']).where('user_id', '=', userId).execute()
  return { primary: rows.find((row) => row.is_primary)!.id }
}

const recordAccounts = async (db: Kysely<Database>, alertId: string) =>
  db.selectFrom('alerts').select(['user_id', 'account_id']).where('alert_id', '=', alertId).orderBy('user_id').execute()

t.test("a fan-out record names each recipient's primary account, in the one statement", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const users = await seedUsers(db, 3, { prefix: 'fan' })
  await seedUsers(db, 1, { prefix: 'off', live: false })
  for (const userId of users) await additionalAccount(db, userId)
  const alert = makeAlert({ userId: 'fan-0' })
  const { created } = await recordEntryAlert(db, alert, 'fanout')
  t.equal(created.length, 3)
  const expected = await Promise.all(users.map(async (userId) => ({ user_id: userId, account_id: (await accountsOf(db, userId)).primary })))
  t.same(await recordAccounts(db, alert.alertId), expected, 'each record is on its trader\'s primary, never the second account')
})

t.test('a targeted record names its trader\'s primary account; a test record names none', async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  await seedUsers(db, 2, { prefix: 'tg' })
  await additionalAccount(db, 'tg-1')
  const alert = makeAlert({ userId: 'tg-1' })
  await recordEntryAlert(db, alert, 'targeted')
  t.same(await recordAccounts(db, alert.alertId), [{ user_id: 'tg-1', account_id: (await accountsOf(db, 'tg-1')).primary }])

  const test = makeAlert({ userId: 'tg-1', isVendorTest: true })
  t.ok(await insertTestRecord(db, test))
  t.same(await recordAccounts(db, test.alertId), [{ user_id: null, account_id: null }])
})

t.test("a trade takes its record's account, and a part closed on its own its trade's", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  await seedUsers(db, 1, { prefix: 'tr' })
  const second = await additionalAccount(db, 'tr-0')
  // A record on the second account (as stage 3's fan-out will write): the trade follows the record, not the primary.
  const record = await db
    .insertInto('alerts')
    .values({ alert_id: 'entry-1', user_id: 'tr-0', account_id: second, symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', raw_data: '{}', contract: 'MNQZ6', status: 'placed' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const scope = { broker: 'paper' as const, environment: 'demo' as const, accountId: 9000 }
  const at = new Date().toISOString()
  const tradeId = await applyEntryFill(db, { recordId: record.id, userId: 'tr-0', scope, fillId: 1, orderId: 11, contractId: 42, quantity: 3, price: '21000', at, stopOrderId: null, targetOrderId: null })
  t.ok(tradeId)
  const trade = await db.selectFrom('trades').select(['account_id']).where('id', '=', tradeId!).executeTakeFirstOrThrow()
  t.equal(trade.account_id, second, "the trade is on its record's account")

  await db.transaction().execute(async (trx) => {
    const locked = await lockRecordTrade(trx, record.id, 'tr-0')
    await closePart(trx, locked!, { id: 2, orderId: 12, price: '21010', at }, 1, 'TP', '20.00')
  })
  const parts = await sql<{ account_id: string | null; parent_trade_id: string | null }>`
    SELECT account_id, parent_trade_id FROM trades WHERE user_id = 'tr-0' ORDER BY id`.execute(db)
  t.same(parts.rows, [{ account_id: second, parent_trade_id: null }, { account_id: second, parent_trade_id: String(tradeId) }], 'the closed part stays on the account')
})
