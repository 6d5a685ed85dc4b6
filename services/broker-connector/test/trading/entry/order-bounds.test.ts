import t, { type Test } from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { eventually, publishAlert, type App } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'
import { PASSWORD, saveCredentials } from '../../feeds/feed-helper.ts'

/**
 * Issue 20, "Every order bounded", end to end against the paper broker (its market-data socket included):
 * the audit's two findings and the bounds that answer them. One connector and one paper broker; each case
 * is its own trader with a broker account of its own, and sets the market it needs.
 */
const ACCOUNTS = 12
let broker: PaperBroker
let app: App
let db: Kysely<Database>
let config: Awaited<ReturnType<typeof tradingApp>>['config']
let next = 0

t.before(async () => {
  broker = await paperBroker(t, {
    accounts: Array.from({ length: ACCOUNTS }, (_, i) => ({ name: `bounds${i}`, password: PASSWORD, userId: 300 + i, accountId: 9300 + i, accountName: `BND${9300 + i}` })),
  })
  // Targeted routing: each alert is recorded for the trader it names only (every case's trader stays live).
  ;({ app, db, config } = await tradingApp(t, broker, { MAX_CONTRACTS_PER_ORDER: '20', ALERT_ROUTING: 'targeted' }))
})

const DEFAULT_LIMITS = { maxRiskPerTradePercent: 1, maxOpenTrades: 3, safetyBufferPercent: 10, maxContractsPerOrder: 5, minStopTicks: 4, maxEntryDistanceTicks: 40, marginPercent: 2 }

/** A connected trader: its limits over the defaults, and the risk strategy's "Maximum contracts" when given. */
async function trader(options: { limits?: Partial<typeof DEFAULT_LIMITS>; riskMode?: object; maxContracts?: number } = {}) {
  const index = next++
  if (index >= ACCOUNTS) throw new Error('more cases than paper accounts')
  const userId = `b-${index}`
  const riskConfig = { limits: { ...DEFAULT_LIMITS, ...options.limits }, ...(options.riskMode ? { riskMode: options.riskMode } : {}) }
  await liveTrader(db, config, { userId, username: `bounds${index}`, riskConfig })
  // The saved account is the login's own (a session trades only the account named in the credentials).
  await saveCredentials(db, config, userId, `bounds${index}`, PASSWORD, { account: `BND${9300 + index}` })
  if (options.maxContracts !== undefined) {
    const strategy = { enabled: false, type: 'legacy', portfolioBalance: 50000, riskPercent: 1, maxContracts: options.maxContracts }
    await sql`INSERT INTO trading_settings (user_id, setting_key, setting_value) VALUES (${userId}, 'risk_strategy', ${JSON.stringify(strategy)}::jsonb)`.execute(db)
  }
  await connect(app, userId)
  return { userId, accountId: 9300 + index }
}

/** The trader's orders at the broker (entries only: the legs have `.sl` / `.tp` tags). */
const entriesAt = (accountId: number) => broker.orders().filter((order) => order.accountId === accountId && order.clOrdId !== null && !order.clOrdId.includes('.'))

async function entry(t: Test, userId: string, alert = mnqEntry({ userId })) {
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.comment(`${record.status} ${record.order_quantity ?? '-'} ${record.refusal_code ?? ''}: ${record.reason ?? ''}`)
  return record
}

/** The audit's first alert: MNQ long at 21000, stop one tick below, with the market where the alert says. */
const oneTickStop = (userId: string) => mnqEntry({ userId, entryPrice: 21000, sl: 20999.75, tp: 21100 })

t.test("audit 1, a one-tick stop: refused by the minimum stop distance, nothing sent (the old code placed 1,000 contracts)", async (t) => {
  broker.setPrice('MNQZ6', '21000')
  const { userId, accountId } = await trader({ maxContracts: 1 })
  const record = await entry(t, userId, oneTickStop(userId))
  t.match(record, { status: 'refused', refusal_code: 'stop_too_close', reason: 'The stop (20999.75) is 1 tick from the price the entry fills at (21000), closer than the 4-tick minimum.' })
  t.same(entriesAt(accountId), [], 'nothing at the broker')
})

t.test('audit 1, a one-tick stop the trader allows: the risk strategy\'s Maximum contracts (1) holds', async (t) => {
  broker.setPrice('MNQZ6', '21000')
  const { userId, accountId } = await trader({ limits: { minStopTicks: 1 }, maxContracts: 1 })
  const record = await entry(t, userId, oneTickStop(userId))
  t.match(record, { status: 'placed', order_quantity: 1 })
  t.same(entriesAt(accountId).length, 1)
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  t.match(await tradeOfRecord(db, record.id), { quantity: '1.0000' }, 'one contract filled')
})

t.test('a one-tick stop without a Maximum contracts: the account limit per order (5 by default), not 1,000', async (t) => {
  broker.setPrice('MNQZ6', '21000')
  const { userId, accountId } = await trader({ limits: { minStopTicks: 1 } })
  const record = await entry(t, userId, oneTickStop(userId))
  t.match(record, { status: 'placed', order_quantity: 5 })
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  const position = broker.positions().find((p) => p.accountId === accountId)
  t.equal(position?.netPos, 5, '5 contracts at the broker')
})

t.test('the platform ceiling (MAX_CONTRACTS_PER_ORDER=20) holds over a trader\'s larger limit', async (t) => {
  broker.setPrice('MNQZ6', '21000')
  const { userId } = await trader({ limits: { minStopTicks: 1, maxContractsPerOrder: 100 } })
  t.match(await entry(t, userId, oneTickStop(userId)), { status: 'placed', order_quantity: 20 })
})

t.test('audit 2, market at 21100 and the alert at 21000: refused with both prices and the limit, nothing sent (the old code filled 1,040 at 21100)', async (t) => {
  broker.setPrice('MNQZ6', '21100')
  const { userId, accountId } = await trader({ limits: { minStopTicks: 1 } })
  const record = await entry(t, userId, mnqEntry({ userId, entryPrice: 21000, sl: 20999.75, tp: 21200 }))
  t.match(record, { status: 'refused', refusal_code: 'market_too_far', reason: "The market (21100) is 400 ticks from the alert's entry (21000), beyond the 40-tick limit." })
  t.same(entriesAt(accountId), [])
})

t.test('audit 2 allowed that far: sized from the broker\'s 21100, so the loss at the stop stays within the $500 budget', async (t) => {
  broker.setPrice('MNQZ6', '21100')
  const { userId } = await trader({ limits: { minStopTicks: 1, maxEntryDistanceTicks: 1000 } })
  const record = await entry(t, userId, mnqEntry({ userId, entryPrice: 21000, sl: 20999.75, tp: 21200 }))
  // 21100 - 20999.75 = 100.25 points x $2 = $200.50 a contract: 2 fit $500.
  t.match(record, { status: 'placed', order_quantity: 2 })
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  broker.setPrice('MNQZ6', '20999')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'SL', entry_price: '21100.00000000', exit_price: '20999.75000000', pnl: '-401.00' }, 'stopped out: $401, not $208,520')
})

t.test('the market already through the stop: refused market_past_stop', async (t) => {
  broker.setPrice('MNQZ6', '20990')
  const { userId, accountId } = await trader()
  t.match(await entry(t, userId, mnqEntry({ userId, entryPrice: 21000, sl: 20995, tp: 21100 })), { status: 'refused', refusal_code: 'market_past_stop', reason: 'The market (20990) is already at or below the stop (20995) of this LONG entry.' })
  t.same(entriesAt(accountId), [])
})

t.test('no usable market price: no quote yet, or the last one too old; refused, saying why', async (t) => {
  const { userId } = await trader()
  const noQuote = await entry(t, userId, mnqEntry({ userId, symbol: 'MES1!', root: 'MES', entryPrice: 6000, sl: 5990, tp: 6020 }))
  t.match(noQuote, { status: 'refused', refusal_code: 'no_market_price', reason: /^There is no usable market price for MES \(the broker has sent no quote for MESZ6 yet\), and a market entry is sized from the broker's price, never the alert's\.$/ })
  broker.setPrice('MNQZ6', '21000', { quotedAt: new Date(Date.now() - 120_000) })
  const stale = await entry(t, userId, mnqEntry({ userId }))
  t.match(stale, { status: 'refused', refusal_code: 'no_market_price', reason: /the last quote for MNQZ6 is 12\d s old, older than the 60 s limit/ })
  broker.setPrice('MNQZ6', '21000')
  await eventually(async () => {
    const fresh = await entry(t, userId, mnqEntry({ userId }))
    return fresh.status === 'placed'
  })
  t.pass('placed once the market quotes again')
})

t.test('a stale offer is not made fresh by a ticking bid and last trade: a long market entry is refused as stale', async (t) => {
  broker.setPrice('MNQZ6', '21000', { quotedAt: new Date(Date.now() - 120_000) })
  const { userId } = await trader()
  const session = app.feeds.session(userId)
  if (!session) throw new Error('the trader is connected')
  const contract = await session.findContract('MNQZ6')
  t.match(await session.marketPrice(contract, 'Buy'), { kind: 'price', source: 'offer' }, 'the offer quoted two minutes ago')
  // From now on the quotes carry the bid and the last trade only, stamped now: the offer is not updated.
  broker.setPrice('MNQZ6', '21000.25', { entries: ['Bid', 'Trade'] })
  await eventually(async () => {
    const bid = await session.marketPrice(contract, 'Sell')
    return bid.kind === 'price' && bid.price === '21000.25' && Date.now() - bid.at.getTime() < 10_000
  })
  t.match(await entry(t, userId, mnqEntry({ userId })), { status: 'refused', refusal_code: 'no_market_price', reason: /the last quote for MNQZ6 is 1[23]\d s old, older than the 60 s limit/ }, "a buy fills at the offer: the offer's own age counts")
  broker.setPrice('MNQZ6', '21000')
})

t.test('a limit entry is sized at its limit, wherever the market is above the stop', async (t) => {
  broker.setPrice('MNQZ6', '21060')
  const { userId, accountId } = await trader()
  const limit = mnqEntry({ userId, entryPrice: 21000, sl: 20950, tp: 21100, raw: { orderType: 'limit' } })
  t.match(await entry(t, userId, limit), { status: 'placed', order_quantity: 5 }, '50 points from the limit: $100 a contract')
  t.equal(entriesAt(accountId)[0]?.ordStatus, 'Working', 'resting at 21000 below the market')
})

t.test('margin: a fixed count the equity cannot carry is refused with the figures', async (t) => {
  broker.setPrice('MNQZ6', '21000')
  const { userId, accountId } = await trader({ limits: { marginPercent: 100 }, riskMode: { mode: 'fixed_contracts', fixedContracts: 2 } })
  t.match(await entry(t, userId), { status: 'refused', refusal_code: 'insufficient_margin', reason: '2 contracts need $84,000.00 of margin (100% of 21000 x $2.00 each), more than the $50,000.00 the $50,000.00 equity holds.' })
  t.same(entriesAt(accountId), [])
})
