import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { recordEntryAlert } from '../../src/repositories/alerts.ts'
import { riskConfigOf } from '../../src/repositories/broker-view.ts'
import { dailyFlattenAccounts, newsFlattenAccounts } from '../../src/repositories/daily-flattens.ts'
import { loadEntryRecords } from '../../src/repositories/entry-records.ts'
import { addLimitEntryTimeouts } from '../../src/repositories/limit-entry-timeouts.ts'
import { watchedAccounts } from '../../src/repositories/risk-halts.ts'
import { build, makeAlert, seedUsers } from '../helper.ts'
import { savePrimaryRiskConfig } from '../trading-helper.ts'
import { additionalAccount } from './additional-account.ts'

// Issue 22, stage 3b (docs/decisions/accounts.md): the connector reads a record's (a trade's, a session's)
// risk configuration from its account, `account_risk_configs` (the per-user `risk_engine_configs` is gone).
// Each trader here has another account of different rules, or another trader has, so each reader shows
// that it reads the record's own account's row.

/** Another trader's primary's row. */
const OTHER = { limits: { maxContractsPerOrder: 5 }, entryOrders: { limitTimeoutSeconds: 90, onLimitTimeout: 'cancel' }, sessionRules: { dailyFlattenAt: null } }
/** The trader's primary's row (what the spec's /api/risk-engine/config saves): what every reader must use. */
const ACCOUNT = {
  limits: { maxContractsPerOrder: 2 },
  entryOrders: { limitTimeoutSeconds: 30, onLimitTimeout: 'market' },
  sessionRules: { dailyFlattenAt: '15:55', newsBlackout: true, flattenBeforeNews: true },
}

async function primaryOf(db: Kysely<Database>, userId: string): Promise<string> {
  return (await db.selectFrom('broker_accounts').select('id').where('user_id', '=', userId).where('is_primary', '=', true).executeTakeFirstOrThrow()).id
}

/** A trader whose primary holds ACCOUNT. */
async function traderWithAccountConfig(db: Kysely<Database>, userId: string): Promise<string> {
  await savePrimaryRiskConfig(db, userId, ACCOUNT)
  return primaryOf(db, userId)
}

t.test("the entry batch reads each record's account's configuration; a record without an account its user's primary's", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const [trader, other] = await seedUsers(db, 2, { prefix: 'acct' })
  await traderWithAccountConfig(db, trader!)
  await savePrimaryRiskConfig(db, other!, OTHER)
  await additionalAccount(db, trader!, { limits: { maxContractsPerOrder: 9 } })
  const { created } = await recordEntryAlert(db, makeAlert({ userId: trader! }), 'fanout')
  // A record written without its account (by hand; the connector always writes one) is on its user's session.
  const { rows } = await sql<{ id: number }>`INSERT INTO alerts (alert_id, user_id, owner_user_id, symbol, raw_data, received_at)
    VALUES ('no-account', ${trader}, ${trader}, 'MNQ1!', '{}'::jsonb, now()) RETURNING id::int AS id`.execute(db)
  const records = await loadEntryRecords(db, [...created.map((record) => record.id), rows[0]!.id])
  const configOf = (userId: string | undefined) => records.filter((record) => record.user_id === userId).map((record) => record.risk_config)
  t.same(configOf(trader), [ACCOUNT, ACCOUNT], "the trader's records: the primary's row, not the other account's")
  t.same(configOf(other), [OTHER], "another trader's record: their primary's row")
})

t.test("a limit entry's deadline comes from its record's account's entry orders", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const [trader] = await seedUsers(db, 1, { prefix: 'limit' })
  await traderWithAccountConfig(db, trader!)
  const { created } = await recordEntryAlert(db, makeAlert({ userId: trader! }), 'fanout')
  const id = created[0]!.id
  await sql`UPDATE alerts SET order_tag = 'sig-1', status = 'placing' WHERE id = ${id}`.execute(db)
  await addLimitEntryTimeouts(db, [id], new Date('2026-11-25T15:00:00Z'))
  t.match(await db.selectFrom('limit_entry_timeouts').select(['timeout_seconds', 'on_timeout', 'due_at']).where('record_id', '=', id).execute(), [
    { timeout_seconds: 30, on_timeout: 'market', due_at: new Date('2026-11-25T15:00:30Z') },
  ])
})

t.test("the flatten passes list each trader's primary by its own configuration; an additional account's rules flatten nothing yet", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const [trader, noTime, secondOnly] = await seedUsers(db, 3, { prefix: 'flat' })
  const primary = await traderWithAccountConfig(db, trader!)
  // A primary whose row names no time (an additional account of the trader names one): not listed.
  await savePrimaryRiskConfig(db, noTime!, {})
  await additionalAccount(db, noTime!, { sessionRules: { dailyFlattenAt: '15:00' } })
  await additionalAccount(db, secondOnly!, ACCOUNT)
  t.same(await dailyFlattenAccounts(db), [{ account_id: primary, user_id: trader, risk_config: ACCOUNT }])
  t.same(await newsFlattenAccounts(db), [{ account_id: primary, user_id: trader, risk_config: ACCOUNT }])
})

t.test("the broker view's computed balance starts from the primary's configuration", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const [trader, none] = await seedUsers(db, 2, { prefix: 'view' })
  await traderWithAccountConfig(db, trader!)
  await additionalAccount(db, trader!, { account: { startingBalance: 100_000 } })
  t.same(await riskConfigOf(db, trader!), ACCOUNT)
  t.equal(await riskConfigOf(db, none!), null, 'nothing saved: the defaults')
})

t.test("the risk watchdog watches each account with its configuration; a trade without an account is its user's primary's, watched once", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  const [trader] = await seedUsers(db, 1, { prefix: 'watch' })
  const primary = await traderWithAccountConfig(db, trader!)
  const openTrade = (accountId: string | null) =>
    sql`INSERT INTO trades (user_id, account_id, symbol, root, side, quantity, entry_price, status, contract, broker_contract_id, broker, environment, broker_account_id)
      VALUES (${trader}, ${accountId}::uuid, 'MNQ1!', 'MNQ', 'LONG', 1, 21000, 'open', 'MNQZ6', 1, 'paper', 'demo', 9000)`.execute(db)
  await openTrade(primary)
  await openTrade(null)
  t.same(await watchedAccounts(db), [
    { user_id: trader, account_id: primary, scope: { broker: 'paper', environment: 'demo', accountId: 9000 }, risk_config: ACCOUNT },
  ])
})
