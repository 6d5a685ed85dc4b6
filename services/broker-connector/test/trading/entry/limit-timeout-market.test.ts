import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { eventually, publishAlert, type App } from '../../helper.ts'
import { entryOrders } from '../../broker-controls.ts'
import { connect, liveTrader, mnqEntry, savePrimaryRiskConfig, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { clockedTradingApp } from '../risk/clocked-timer-helper.ts'
import { loadAccountRows } from '../../../src/repositories/account-rows.ts'

/**
 * `limit_timeout` with the market (issue 24, item 6; docs/decisions/limit-entry-timeout.md): a limit entry
 * not filled by its deadline has its unfilled rest sent at the market, re-sized at the market price against
 * the account's limits, once, with a stop and target covering the whole position; refused with the reason
 * when nothing fits or the price is stale. MNQZ6 is at 21000.
 */
let broker: PaperBroker
let app: App
let db: Kysely<Database>
let passAt: Awaited<ReturnType<typeof clockedTradingApp>>['passAt']

t.before(async () => {
  const clocked = await clockedTradingApp(t)
  ;({ broker, app, db, passAt } = clocked)
  await liveTrader(db, clocked.config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
})

const at = (dueAt: Date, ms: number) => new Date(dueAt.getTime() + ms).toISOString()
const reasonOf = async (recordId: number) => (await db.selectFrom('alerts').select(['status', 'reason']).where('id', '=', recordId).executeTakeFirstOrThrow())
const ordersTagged = (tag: string) => broker.orders().filter((order) => order.clOrdId === tag)

/** One limit-timeout pass at `at`: what it did to the one deadline due. */
async function onePass(at: string) {
  const done = (await passAt('limitTimeouts', at)) as { recordId: number; outcome: string }[]
  return done[0]
}

async function placedLimit(entryPrice: number, sl: number, tp: number, action: 'market' | undefined) {
  const entryOrder = { type: 'limit' as const, stopPrice: null, timeInForce: null, limitTimeoutSeconds: 30, ...(action ? { limitTimeoutAction: action } : {}) }
  const alert = mnqEntry({ userId: 'u-0', entryPrice, sl, tp, raw: { orderType: 'limit' }, entryOrder })
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.match(record, { status: 'placed', reason: null })
  const row = await db.selectFrom('limit_entry_timeouts').select(['due_at', 'on_timeout']).where('record_id', '=', record.id).executeTakeFirstOrThrow()
  return { record, dueAt: row.due_at, onTimeout: row.on_timeout }
}

/** Cancels an order at the broker as a pass of ours would (through the trader's session). */
async function cancelAtBroker(orderId: number) {
  const session = app.feeds.session('u-0')
  if (!session) throw new Error('no session for u-0')
  await session.cancelOrder(orderId)
  await eventually(() => broker.orders().find((order) => order.id === orderId)?.ordStatus === 'Canceled')
}

/**
 * Closes the record's trade at its target and puts the market back at 21000: the next case starts flat, and
 * with a balance a little above the start (1% of it stays between $500 and $550: 5 contracts fit a 50-point
 * stop, 4 a 55-point one).
 */
async function closeAtTarget(recordId: number, target: string) {
  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', target)
  await eventually(async () => (await tradeOfRecord(db, recordId))?.status === 'closed')
  broker.setPrice('MNQZ6', '21000')
}

t.test('nothing filled: the whole rest sent at the market once, re-sized for the wider stop, with its own stop and target', async (t) => {
  const { record, dueAt, onTimeout } = await placedLimit(20995, 20945, 21100, 'market')
  t.equal(onTimeout, 'market', "the alert's limit_timeout_action is kept on the deadline")
  t.equal(record.order_quantity, 5, 'sized 5 at the limit: 50 points x $2 x 5 = the $500 a trade may risk')
  const done = await onePass(at(dueAt, 0))
  t.match(done, { recordId: record.id, outcome: /^not filled within 30 s \(limit_timeout\): \d+ of \d+ remaining sent at the market/ })
  await eventually(() => entryOrders(broker, `sig-${record.id}`)[0]?.ordStatus === 'Canceled')
  const market = ordersTagged(`sig-${record.id}.m`)
  t.equal(market.length, 1, 'one market order for the rest')
  const sent = market[0]?.orderQty ?? 0
  // At 21000 the stop is 55 points away: $110 a contract, so 4 fit in the $500, not 5.
  t.equal(sent, 4, 're-sized at the market price')
  t.match(done?.outcome, /^not filled within 30 s \(limit_timeout\): 4 of 5 remaining sent at the market \(the account's limits allow no more at the market price; 1 not sent\), with its own stop and target$/)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === `${sent}.0000`)
  const legs = () => broker.orders().filter((order) => order.clOrdId === `sig-${record.id}.m.sl` || order.clOrdId === `sig-${record.id}.m.tp`)
  await eventually(() => legs().length === 2 && legs().every((leg) => leg.ordStatus === 'Working' && leg.orderQty === sent))
  t.match(await tradeOfRecord(db, record.id), { status: 'open', stop_order_id: legs().find((leg) => leg.clOrdId?.endsWith('.sl') === true)?.id })
  t.match(await reasonOf(record.id), { status: 'placed', reason: done?.outcome })
  t.same(await passAt('limitTimeouts', at(dueAt, 60_000)), [], 'done: a later pass (or instance) sends nothing')
  t.equal(ordersTagged(`sig-${record.id}.m`).length, 1, 'still one market order')
  await closeAtTarget(record.id, '21100')
})

t.test("the account's choice; part filled: the rest at the market, the filled part's stop and target grow to the whole position", async (t) => {
  await savePrimaryRiskConfig(db, 'u-0', { entryOrders: { limitTimeoutSeconds: 20, onLimitTimeout: 'market' } })
  t.teardown(() => sql`DELETE FROM account_risk_configs WHERE user_id = 'u-0'`.execute(db))
  const alert = mnqEntry({ userId: 'u-0', entryPrice: 20950, sl: 20900, tp: 21050, raw: { orderType: 'limit' } })
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.match(record, { status: 'placed', order_quantity: 5 })
  const row = await db.selectFrom('limit_entry_timeouts').select(['due_at', 'on_timeout']).where('record_id', '=', record.id).executeTakeFirstOrThrow()
  t.equal(row.on_timeout, 'market', "the account's onLimitTimeout")
  broker.setLiquidity('MNQZ6', 2)
  broker.setPrice('MNQZ6', '20950')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '2.0000')
  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', '20955')
  const done = await onePass(at(row.due_at, 0))
  // The whole position at 20955: a 55-point stop, $110 a contract: 4 in all fit the $500, 2 already filled.
  t.match(done, { recordId: record.id, outcome: /^not filled within 20 s \(limit_timeout\): 2 of 3 remaining sent at the market \(the account's limits allow no more at the market price; 1 not sent\); the stop and target of the 2 filled grow to cover it once it fills$/ })
  t.equal(ordersTagged(`sig-${record.id}.ma`).length, 1, 'one market order, without legs of its own')
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${record.id}.ma.`)).length, 0)
  t.match(ordersTagged(`sig-${record.id}.ma`), [{ orderQty: 2 }])
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '4.0000')
  const legs = () => broker.orders().filter((order) => order.clOrdId === `sig-${record.id}.sl` || order.clOrdId === `sig-${record.id}.tp`)
  await eventually(() => legs().length === 2 && legs().every((leg) => leg.ordStatus === 'Working' && leg.orderQty === 4))
  t.pass('the stop and target cover all 4')
  await closeAtTarget(record.id, '21050')
  t.same(broker.positions().filter((position) => position.netPos !== 0), [], 'flat: the target closed all 4, nothing left over')
})

t.test('no fresh market price: the rest is cancelled and not sent, the record says why', async (t) => {
  const { record, dueAt } = await placedLimit(20995, 20945, 21100, 'market')
  broker.setPrice('MNQZ6', '21000', { quotedAt: new Date(Date.now() - 10 * 60_000) })
  t.teardown(() => broker.setPrice('MNQZ6', '21000'))
  const done = await onePass(at(dueAt, 0))
  t.match(done, { recordId: record.id, outcome: /^not filled within 30 s \(limit_timeout\): the rest was cancelled and not sent at the market: .*(market price|quote)/ })
  await eventually(() => entryOrders(broker, `sig-${record.id}`)[0]?.ordStatus === 'Canceled')
  t.equal(ordersTagged(`sig-${record.id}.m`).length, 0, 'nothing sent at the market')
  t.match(await reasonOf(record.id), { status: 'placed', reason: done?.outcome })
})

t.test('a rest written to go at the market but never confirmed is looked for by its tag, never sent again', async (t) => {
  const { record, dueAt } = await placedLimit(20995, 20945, 21100, 'market')
  // As if a pass had cancelled the entry, written the market order, and stopped before (or while) sending it.
  const entry = entryOrders(broker, `sig-${record.id}`)[0]
  if (!entry) throw new Error('no entry at the broker')
  await cancelAtBroker(entry.id)
  await sql`UPDATE limit_entry_timeouts SET cancel_asked_at = now(), market_tag = ${`sig-${record.id}.m`}, market_quantity = 1, claimed_at = now() - interval '5 minutes' WHERE record_id = ${record.id}`.execute(db)
  t.same(await passAt('limitTimeouts', at(dueAt, 0)), [], 'not listed: looked for again later, not sent')
  t.equal(ordersTagged(`sig-${record.id}.m`).length, 0)
  const done = await onePass(at(dueAt, 2 * 24 * 60 * 60_000))
  t.match(done, { recordId: record.id, outcome: /its market order \(sig-\d+\.m\) was sent but never confirmed.*it is not sent again/ })
  t.equal(ordersTagged(`sig-${record.id}.m`).length, 0, 'never sent')
  // Sent for all we know: it counts as open for ten minutes after the pass gave it up, as an entry after its sending.
  t.match((await loadAccountRows(db, ['u-0'], [], new Map())).openTrades.get('u-0'), [{ quantity: '1' }])
  await sql`UPDATE limit_entry_timeouts SET done_at = now() - interval '11 minutes' WHERE record_id = ${record.id}`.execute(db)
  t.same((await loadAccountRows(db, ['u-0'], [], new Map())).openTrades.get('u-0') ?? [], [], 'then no longer')
})

t.test('a pass that cancelled the entry and stopped before writing the rest: the next pass sends the rest once', async (t) => {
  const { record, dueAt } = await placedLimit(20995, 20945, 21100, 'market')
  const entry = entryOrders(broker, `sig-${record.id}`)[0]
  if (!entry) throw new Error('no entry at the broker')
  await cancelAtBroker(entry.id)
  await sql`UPDATE limit_entry_timeouts SET cancel_asked_at = now(), claimed_at = now() - interval '5 minutes' WHERE record_id = ${record.id}`.execute(db)
  t.match(await passAt('limitTimeouts', at(dueAt, 0)), [{ recordId: record.id, outcome: /remaining sent at the market/ }])
  t.equal(ordersTagged(`sig-${record.id}.m`).length, 1)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  await closeAtTarget(record.id, '21100')
})

t.test('a rest sent at the market and not filled yet counts as an open trade of its quantity', async (t) => {
  const { record } = await placedLimit(20995, 20945, 21100, 'market')
  const entry = entryOrders(broker, `sig-${record.id}`)[0]
  if (!entry) throw new Error('no entry at the broker')
  await cancelAtBroker(entry.id)
  // As a pass leaves it once the market order went out, before its fill opened the record's trade.
  await sql`UPDATE limit_entry_timeouts SET cancel_asked_at = now(), market_tag = ${`sig-${record.id}.m`}, market_quantity = 4, claimed_at = now(), done_at = now(), cancelled = true WHERE record_id = ${record.id}`.execute(db)
  await sql`UPDATE alerts SET placed_at = now() - interval '1 hour', received_at = now() - interval '1 hour' WHERE id = ${record.id}`.execute(db)
  const rows = await loadAccountRows(db, ['u-0'], [], new Map())
  t.match(rows.openTrades.get('u-0'), [{ root: 'MNQ', side: 'LONG', quantity: '4' }], 'the rest at the market counts, at its own quantity')
  await sql`UPDATE limit_entry_timeouts SET claimed_at = now() - interval '1 hour', done_at = now() - interval '1 hour' WHERE record_id = ${record.id}`.execute(db)
  t.same((await loadAccountRows(db, ['u-0'], [], new Map())).openTrades.get('u-0') ?? [], [], 'an hour after it went out without a fill or a working order, it no longer counts')
})

t.test('the broker and our trades disagree in the contract: the rest is cancelled and not sent, the record says why', async (t) => {
  const { record, dueAt } = await placedLimit(20995, 20945, 21100, 'market')
  const entry = entryOrders(broker, `sig-${record.id}`)[0]
  if (!entry) throw new Error('no entry at the broker')
  const session = app.feeds.session('u-0')
  if (!session) throw new Error('no session for u-0')
  const scope = app.trading.scopeOf(session)
  // As the reconciler leaves it when the broker holds contracts none of our trades accounts for.
  const reason = `the broker holds +2 contract ${entry.contractId} and none of our open trades is in it`
  await db.insertInto('position_discrepancies').values({ user_id: 'u-0', broker: scope.broker, environment: scope.environment, broker_account_id: scope.accountId, broker_contract_id: entry.contractId, contract: 'MNQZ6', kind: 'untracked_position', broker_qty: 2, our_qty: 0, action: 'left as it is', reason, found_at: new Date(), last_seen_at: new Date() }).execute()
  t.teardown(() => sql`UPDATE position_discrepancies SET resolved_at = now() WHERE user_id = 'u-0'`.execute(db))
  const done = await onePass(at(dueAt, 0))
  t.match(done, { recordId: record.id, outcome: /the rest was cancelled and not sent at the market: .*the broker holds \+2 contract/ })
  await eventually(() => entryOrders(broker, `sig-${record.id}`)[0]?.ordStatus === 'Canceled')
  t.equal(ordersTagged(`sig-${record.id}.m`).length, 0, 'nothing sent at the market')
})
