import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { eventually } from '../../helper.ts'
import { tradeOfRecord } from '../../trading-helper.ts'
import { watchedTrader } from './watchdog-helper.ts'

// Review of the broker connector (issue 20, items 5 and 6): open pnl, the risk watchdog and its flatten
// read the user's trades, not the session's account's. A trade of the same user left on another account
// (an earlier saved one), in the other environment (demo and live) or at the other broker made this
// account's own positions count (and be flattened) as if they were ours, and a halt closed that trade too.
// Trader u-0 trades paper demo account 9000; every case leaves the watchdog's passes to the test.

const HARD_1000 = { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } }
const ELSEWHERE = [
  { broker: 'paper', environment: 'live', account: 9000 },
  { broker: 'paper', environment: 'demo', account: 9100 },
  { broker: 'tradovate', environment: 'demo', account: 9000 },
] as const

/** Open LONG trades of u-0 in the contract on the other venues and accounts, as left by earlier sessions. */
async function tradesElsewhere(db: Kysely<Database>, contract: { name: string; id: number; symbol: string; root: string }, price: string) {
  const ids: number[] = []
  for (const [i, where] of ELSEWHERE.entries()) {
    const { id } = await db
      .insertInto('trades')
      .values({
        user_id: 'u-0', symbol: contract.symbol, root: contract.root, side: 'LONG', quantity: '2', entry_price: price, contract: contract.name,
        broker_contract_id: contract.id, broker: where.broker, environment: where.environment, broker_account_id: where.account, entry_order_id: 880_000 + i,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    ids.push(id)
  }
  return ids
}

const untouched = (db: Kysely<Database>, ids: readonly number[]) =>
  db.selectFrom('trades').select(['status', 'close_reason', 'exit_requested_at']).where('id', 'in', ids).execute()

t.test("open pnl counts only this account's trades: a position of the account that only another account's trade names is neither counted nor flattened", async (t) => {
  // The open-trade limit counts the user's trades everywhere (docs/decisions/broker-connector.md): raised here.
  const { broker, db, watchdog, netPosition, contractIdOf, nextEntry, quoted } = await watchedTrader(t, { ...HARD_1000, limits: { maxOpenTrades: 10 } }, { watchdogMs: '600000' })
  broker.setPrice('MESZ6', '6000')
  const mes = await contractIdOf('MESZ6')
  const elsewhere = await tradesElsewhere(db, { name: 'MESZ6', id: mes, symbol: 'MES1!', root: 'MES' }, '6000')
  // The trader's own MES position on this account, bought by hand with its stop (none of our trades is in it).
  broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'MESZ6', orderQty: 2, orderType: 'Market', isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 5000 } })
  t.equal(netPosition(mes), 2)
  broker.setPrice('MESZ6', '5880') // 2 x 120 points x $5 = -1,200 open in MES: past the limit, were it ours
  await quoted('5880', Infinity, 'MESZ6')

  const record = await nextEntry()
  t.match(record, { status: 'placed', order_quantity: 5 }, 'the MES loss is not counted: none of this account\'s trades is in MES')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  t.same(await watchdog.pass(), ['calm'], 'the account is watched for its MNQ trade only, which is flat')
  t.equal(netPosition(mes), 2, 'the MES position is left to the trader')
  t.same(await db.selectFrom('risk_halts').selectAll().execute(), [], 'no halt')
  t.same(await db.selectFrom('flatten_requests').selectAll().execute(), [], 'nothing asked to be flattened')
  t.same(await untouched(db, elsewhere), elsewhere.map(() => ({ status: 'open', close_reason: null, exit_requested_at: null })), 'the other accounts\' trades are untouched')
})

t.test("a halt flattens and closes this account's trades only; another account's open trades keep the watchdog away afterwards", async (t) => {
  const { broker, db, watchdog, closedLoss, netPosition, contractIdOf, openTrade, quoted } = await watchedTrader(t, HARD_1000, { watchdogMs: '600000' })
  const mnq = await contractIdOf('MNQZ6')
  const ours = await openTrade()
  const elsewhere = await tradesElsewhere(db, { name: 'MNQZ6', id: mnq, symbol: 'MNQ1!', root: 'MNQ' }, '21000')
  await closedLoss('-900')
  broker.setPrice('MNQZ6', '20980') // 5 x 20 points x $2 = -200 open: 1,100 lost today
  await quoted('20980')
  t.same(await watchdog.pass(), ['flattened'])
  await eventually(async () => (await tradeOfRecord(db, ours))?.status === 'closed')
  t.match(await tradeOfRecord(db, ours), { result: 'Session End', close_reason: /reached the hard daily loss limit of \$1,000\.00/ })
  t.equal(netPosition(mnq), 0, 'flat at the broker')
  t.same(await untouched(db, elsewhere), elsewhere.map(() => ({ status: 'open', close_reason: null, exit_requested_at: null })), 'the other accounts\' trades are neither closed nor asked to exit')

  t.same(await watchdog.pass(), [], 'halted, and no trade of this account is open: nothing to watch')
  t.same(await untouched(db, elsewhere), elsewhere.map(() => ({ status: 'open', close_reason: null, exit_requested_at: null })))
})

t.test('a difference with the broker recorded for another venue or account does not hold back entries in the contract; this account\'s does', async (t) => {
  const { db, contractIdOf, nextEntry } = await watchedTrader(t, HARD_1000, { watchdogMs: '600000' })
  const mnq = await contractIdOf('MNQZ6')
  const difference = (where: { broker: 'paper' | 'tradovate'; environment: 'demo' | 'live'; account: number }) =>
    sql`INSERT INTO position_discrepancies (user_id, broker, environment, broker_account_id, broker_contract_id, contract, kind, broker_qty, our_qty, action, reason)
      VALUES ('u-0', ${where.broker}, ${where.environment}, ${where.account}, ${mnq}, 'MNQZ6', 'untracked_position', 3, 0, 'left: it has a stop', 'the broker holds 3 MNQZ6 none of our trades is in')`.execute(db)
  for (const where of ELSEWHERE) await difference(where)
  t.match(await nextEntry(), { status: 'placed' }, 'placed: the differences are other accounts\'')
  await difference({ broker: 'paper', environment: 'demo', account: 9000 })
  t.match(await nextEntry(), { status: 'refused', refusal_code: 'position_differs', reason: /^not placed: the broker holds 3 MNQZ6 none of our trades is in; new entries in MNQZ6 wait/ }, "this account's difference holds it back")
})
