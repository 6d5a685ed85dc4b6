import t from 'tap'
import { eventually, identityHeaders, makeAlert, publishAlert, setLiveTrading } from '../../helper.ts'
import type { Database, Kysely } from '@signals/db'
import { connectedTraderOn, forEachBroker, legsOf, netPositionAt } from '../../brokers-under-test.ts'
import { connect, connectedTrader, feedCommand, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

t.test('enabling live trading connects the trader\'s session; disabling disconnects it', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  t.same(broker.sessions(), ['trader0'])
  await setLiveTrading(db, ['u-0'], { enabled: false, autoPlaceOrders: false })
  await feedCommand(app, 'u-0', 'stop')
  await eventually(() => broker.sessions().length === 0)
  t.equal(app.feeds.session('u-0'), null)
})

// The entry flow, its bracket and its exits run against both paper brokers (issue 23, item 6).
forEachBroker(t, 'an entry becomes a bracket of the computed size, a trade from the fill, closed TP at the target fill with exact pnl', async (t, kind) => {
  const { broker, app, db, config } = await connectedTraderOn(t, kind)

  const alert = mnqEntry({ entryPrice: 21000, sl: 20950.1, tp: 21100.6 })
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.match(record, { status: 'placed', order_quantity: 5, contract: 'MNQZ6', order_tag: `sig-${record.id}`, reason: null, send_attempts: 1 })
  // ProjectX answers Order/place with the entry's id only: its legs' ids come over the hub, to the trade.
  if (kind === 'tradovate') t.ok(record.entry_order_id && record.stop_order_id && record.target_order_id, 'entry, stop and target order ids recorded')
  t.same(broker.orders().filter((order) => order.clOrdId === `sig-${record.id}`).map((order) => order.id), [Number(record.entry_order_id)], 'one entry at the broker, under the record\'s tag')
  t.equal(legsOf(broker, record.entry_order_id).length, 2, 'and its two legs')
  t.equal(netPositionAt(broker), 5, '5 contracts long: $500 budget / (50 points x $2)')

  await eventually(async () => (await tradeOfRecord(db, record.id))?.target_order_id != null)
  const opened = await tradeOfRecord(db, record.id)
  t.same([opened?.stop_order_id, opened?.target_order_id].map(Number).sort(), legsOf(broker, record.entry_order_id).map((order) => order.id).sort(), 'the trade knows its legs')
  t.match(opened, {
    user_id: 'u-0', symbol: 'MNQ1!', root: 'MNQ', side: 'LONG', quantity: '5.0000', entry_price: '21000.00000000', status: 'open',
    contract: 'MNQZ6', broker: broker.brokerName, entry_order_id: record.entry_order_id,
  })
  t.equal(String(opened?.broker_account_id), String(broker.accountId()), 'on the saved account')
  const primary = await db.selectFrom('broker_accounts').select('id').where('user_id', '=', 'u-0').where('is_primary', '=', true).executeTakeFirstOrThrow()
  t.equal(opened?.account_id, primary.id, "the trade is on the trader's primary account, its record's (issue 22, stage 3a)")

  broker.setPrice('MNQZ6', '21101')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'TP', exit_price: '21100.50000000', broker_exit_price: '21100.50000000', pnl: '1005.00' },
    'the target, rounded to the tick toward the entry (21100.50), filled: (21100.50 - 21000) x 5 x $2')
  t.equal(netPositionAt(broker), 0, 'flat at the broker')
  await eventually(() => legsOf(broker, record.entry_order_id).every((order) => order.ordStatus !== 'Working'))
  t.pass('the stop went with the target')

  const listed = await app.inject({ method: 'GET', url: '/api/alerts', headers: identityHeaders(config, 'u-0') })
  t.match(listed.json(), { alerts: [{ accountId: primary.id, status: 'placed', orderQuantity: 5, contract: 'MNQZ6', reason: null, entryOrderId: String(record.entry_order_id) }] })
  const trades = await app.inject({ method: 'GET', url: '/api/trades', headers: identityHeaders(config, 'u-0') })
  t.match(trades.json(), { trades: [{ result: 'TP', pnl: '1005.00', alertRecordId: String(record.id), contract: 'MNQZ6', accountId: primary.id, brokerAccountId: String(broker.accountId()), brokerExitPrice: '21100.50000000' }] })
})

forEachBroker(t, 'a short through its stop closes SL at the stop fill with exact pnl', async (t, kind) => {
  const { broker, app, db } = await connectedTraderOn(t, kind)
  const alert = mnqEntry({ action: 'SHORT', entryPrice: 21000, sl: 21040, tp: 20900 })
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.match(record, { status: 'placed', order_quantity: 5 }, 'floor($500 / (40 points x $2)) = 6, cut to 5 by the default limit per order')
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  t.equal(netPositionAt(broker), -5, 'short at the broker')
  broker.setPrice('MNQZ6', '21050')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'SL', side: 'SHORT', exit_price: '21040.00000000', pnl: '-400.00' }, '(21000 - 21040) x 5 x $2')
  t.equal(netPositionAt(broker), 0, 'flat at the broker')
})

forEachBroker(t, 'a result alert Exit flattens at the broker and the trade closes as Session End at the flatten fill; the alert\'s price is kept as the signal\'s', async (t, kind) => {
  const { broker, app, db } = await connectedTraderOn(t, kind)
  const alert = mnqEntry()
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)

  broker.setPrice('MNQZ6', '21020.25')
  const exit = makeAlert({ kind: 'result', symbol: 'MNQ1!', root: 'MNQ', result: 'Exit', exitPrice: 21020, action: null, entryPrice: null, sl: null, tp: null, userId: null })
  await publishAlert(app, exit)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), {
    status: 'closed', result: 'Session End', exit_price: '21020.25000000', pnl: '202.50', close_alert_id: exit.alertId, broker_exit_price: '21020.25000000',
    signal_exit_price: '21020.00000000',
  }, '(21020.25 - 21000) x 5 x $2 from the fill; 21020 was the alert\'s')
  t.equal(netPositionAt(broker), 0, 'flattened')
  await eventually(() => broker.orders().every((o) => o.ordStatus !== 'Working'))
  t.pass('the remaining legs were cancelled')

  broker.setPrice('MNQZ6', '21200')
  await publishAlert(app, exit, 'alerts.result', 'again')
  await eventually(async () => (await db.selectFrom('trades').select('id').execute()).length === 1)
  t.match(await tradeOfRecord(db, record.id), { exit_price: '21020.25000000', pnl: '202.50' }, 'never closed a second time')
  t.equal(netPositionAt(broker), 0, 'nothing traded again')
})

t.test('an Exit alert without a price closes at the broker\'s flatten fill', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const alert = mnqEntry()
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  broker.setPrice('MNQZ6', '20990.5')
  await publishAlert(app, makeAlert({ kind: 'result', symbol: 'MNQ1!', root: 'MNQ', result: 'Exit', exitPrice: null, action: null, entryPrice: null, sl: null, tp: null, userId: null }))
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'Session End', exit_price: '20990.50000000', broker_exit_price: '20990.50000000', pnl: '-95.00' })
})

t.test('auto-place off keeps the record and places nothing', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', autoPlace: false })
  await connect(app, 'u-0')
  const alert = mnqEntry()
  await publishAlert(app, alert)
  t.match(await settledRecord(db, alert.alertId), { status: 'not_placed', reason: /automatic order placement is off/, entry_order_id: null })
  t.same(broker.orders(), [])
})

t.test('the broker\'s refusal of the order is said once, in its own words', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  broker.interfere('order/placeOSO', { kind: 'refusal', failureText: 'Not enough margin for 5 MNQZ6' })
  const alert = mnqEntry()
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.equal(record.status, 'failed')
  t.equal(record.reason, 'the broker refused the order: Not enough margin for 5 MNQZ6')
})

t.test('a broker refusal is the record\'s reason; no session at all fails as "broker connection not up"', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await liveTrader(db, config, { userId: 'u-1', username: 'nobody-at-the-broker' })
  await connect(app, 'u-0')
  broker.interfere('order/placeOSO', { kind: 'captcha' })
  const alert = mnqEntry()
  await publishAlert(app, alert)
  const refused = await settledRecordOf(db, alert.alertId, 'u-0')
  t.match(refused, { status: 'failed' })
  t.equal(refused.reason, 'order/placeOSO: the broker asks for a captcha; trying again in about an hour', 'the broker\'s words, once')
  const lost = await settledRecordOf(db, alert.alertId, 'u-1')
  t.match(lost, { status: 'failed', reason: /^broker connection not up/ })
  t.equal(broker.orders().length, 0)
})

async function settledRecordOf(db: Kysely<Database>, alertId: string, userId: string) {
  await eventually(async () => {
    const row = await db.selectFrom('alerts').select('status').where('alert_id', '=', alertId).where('user_id', '=', userId).executeTakeFirst()
    return row !== undefined && row.status !== 'received' && row.status !== 'placing'
  }, 20_000)
  return db.selectFrom('alerts').selectAll().where('alert_id', '=', alertId).where('user_id', '=', userId).executeTakeFirstOrThrow()
}
