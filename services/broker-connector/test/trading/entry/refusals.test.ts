import t, { type Test } from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { eventually, identityHeaders, makeAlert, publishAlert, setLiveTrading, type App } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

/**
 * Every refusal rule reaches the record with its code and sentence, and nothing reaches the broker.
 * One connector and one paper broker; each case is its own trader (its own account state).
 */
let broker: PaperBroker
let app: App
let db: Kysely<Database>
let config: Awaited<ReturnType<typeof tradingApp>>['config']
let next = 0

t.before(async () => {
  broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  broker.setPrice('ESZ6', '6000')
  // The entry's own refusals: the risk watchdog (test/risk) would otherwise race the hard-limit case's entry.
  ;({ app, db, config } = await tradingApp(t, broker, { RISK_WATCHDOG_MS: '600000' }))
})

/** A connected trader (trader0..3 are the broker's logins; each case re-uses one after the previous is done). */
async function trader(riskConfig?: unknown) {
  const userId = `u-${next}`
  await liveTrader(db, config, { userId, username: `trader${next % 4}`, riskConfig })
  next++
  await connect(app, userId)
  return userId
}

async function refusal(t: Test, userId: string, alert = mnqEntry({ userId })) {
  const before = broker.orders().length
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.equal(broker.orders().length, before, 'nothing sent to the broker')
  await setLiveTrading(db, [userId], { enabled: false, autoPlaceOrders: false })
  return record
}

async function closedLoss(userId: string, pnl: string) {
  await sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, exit_price, status, result, pnl, closed_at)
    VALUES (${userId}, 'MNQ1!', 'MNQ', 'LONG', 1, 21000, 20000, 'closed', 'SL', ${pnl}, now())`.execute(db)
}

t.test('no stop: refused no_stop', async (t) => {
  const userId = await trader()
  const record = await refusal(t, userId, mnqEntry({ sl: null }))
  t.match(record, { status: 'refused', refusal_code: 'no_stop', reason: /no stop/ })
})

t.test('one contract risks more than the budget: refused size_below_one with the figures', async (t) => {
  const userId = await trader()
  const record = await refusal(t, userId, mnqEntry({ sl: 20000 }))
  t.match(record, { status: 'refused', refusal_code: 'size_below_one', reason: /\$2,000\.00.*\$500\.00/ })
  const listed = await app.inject({ method: 'GET', url: '/api/alerts', headers: identityHeaders(config, userId) })
  t.match(listed.json(), { alerts: [{ status: 'refused', refusalCode: 'size_below_one', reason: record.reason }] }, 'GET /api/alerts shows it')
})

t.test('a stop on the wrong side of the entry: refused', async (t) => {
  const userId = await trader()
  t.match(await refusal(t, userId, mnqEntry({ sl: 21050 })), { status: 'refused', refusal_code: 'stop_on_wrong_side' })
})

t.test('maximum open trades reached: refused max_open_trades', async (t) => {
  const userId = await trader({ limits: { maxOpenTrades: 1 } })
  await sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price) VALUES (${userId}, 'ES1!', 'ES', 'LONG', 1, 6000)`.execute(db)
  t.match(await refusal(t, userId), { status: 'refused', refusal_code: 'max_open_trades', reason: /1 trades are open and the limit is 1/ })
})

t.test('soft daily loss limit reached: refused daily_loss_limit, nothing flattened', async (t) => {
  const userId = await trader({ dailyLossLimit: { enabled: true, amount: 1000, type: 'soft' } })
  await closedLoss(userId, '-1000')
  t.match(await refusal(t, userId), { status: 'refused', refusal_code: 'daily_loss_limit', reason: /no new entries this session/ })
})

t.test('the drawdown floor: refused drawdown_floor', async (t) => {
  // A 60,000 starting balance puts the floor at 58,000; the broker's balance is 50,000.
  const userId = await trader({ account: { startingBalance: 60000 } })
  t.match(await refusal(t, userId), { status: 'refused', refusal_code: 'drawdown_floor', reason: /drawdown floor/ })
})

t.test('an incomplete alert and an unknown contract: refused with their own codes', async (t) => {
  const userId = await trader()
  t.match(await refusal(t, userId, makeAlert({ userId, symbol: 'AAPL', root: null })), { status: 'refused', refusal_code: 'unknown_contract', reason: /AAPL/ })
  await setLiveTrading(db, [userId], { enabled: true, autoPlaceOrders: true })
  t.match(await refusal(t, userId, makeAlert({ userId, action: null })), { status: 'refused', refusal_code: 'incomplete_alert' })
})

t.test('hard daily loss limit: refused daily_loss_limit_hard, the open position flattened, later entries refused', async (t) => {
  const userId = await trader({ dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  const first = mnqEntry({ userId })
  await publishAlert(app, first)
  const placed = await settledRecord(db, first.alertId)
  t.equal(placed.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, placed.id)) !== undefined)
  await closedLoss(userId, '-1000')

  const second = mnqEntry({ userId })
  await publishAlert(app, second)
  t.match(await settledRecord(db, second.alertId), { status: 'refused', refusal_code: 'daily_loss_limit_hard', reason: /every position is flattened/ })
  await eventually(async () => (await tradeOfRecord(db, placed.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, placed.id), { result: 'Session End', exit_price: '21000.00000000', pnl: '0.00' }, 'closed at the flatten fill')
  const accountId = (await tradeOfRecord(db, placed.id))?.broker_account_id
  const positions = broker.positions().filter((p) => p.accountId === accountId)
  t.ok(positions.length > 0 && positions.every((p) => p.netPos === 0), 'flat at the broker')

  await closedLoss(userId, '500')
  const third = mnqEntry({ userId })
  await publishAlert(app, third)
  t.match(await settledRecord(db, third.alertId), { refusal_code: 'daily_loss_limit_hard', reason: /halted for this session/ }, 'halted for the session even after a win')
})
