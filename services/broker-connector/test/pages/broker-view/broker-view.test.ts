import t from 'tap'
import { eventually, identityHeaders, publishAlert } from '../../helper.ts'
import { connect, connectedTrader, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

interface PositionView {
  contract: string | null
  side: string
  quantity: number
  averagePrice: string | null
  marketPrice: string | null
  marketPriceAt: string | null
  unrealizedPnl: string | null
  ours: boolean
  tradeIds: string[]
}
interface OrderView {
  id: string
  contract: string | null
  side: string
  type: string | null
  quantity: number | null
  price: string | null
  stopPrice: string | null
  status: string
  ours: boolean
  recordId: string | null
}

/**
 * What the broker says (issue 25, item 3) against the paper broker: our open trade with its unrealized pnl
 * after a price move, a position opened by hand shown as not ours, a working limit order listed, the
 * broker's balance beside ours, and the order history.
 */
t.test('broker positions: our trade with unrealized pnl after a move, a hand-opened position not ours, working orders, balances', async (t) => {
  const { broker, app, db, config } = await connectedTrader(t)
  broker.setPrice('MESZ6', '6000')
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  const trade = (await tradeOfRecord(db, record.id))!
  // By hand at the broker: a long MES position, and a resting MNQ buy limit far below the market.
  broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'MESZ6', orderQty: 2, orderType: 'Market', isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 5900 } })
  const resting = broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Limit', price: 19000, isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 18900 } })
  const restingId = 'orderId' in resting ? resting.orderId : undefined
  if (restingId === undefined) throw new Error(JSON.stringify(resting))
  broker.setPrice('MNQZ6', '21010')
  broker.setPrice('MESZ6', '6003')

  const headers = identityHeaders(config, 'u-0')
  const read = async () => {
    const response = await app.inject({ method: 'GET', url: '/api/broker/positions', headers })
    t.equal(response.statusCode, 200, response.body)
    return response.json()
  }
  const positionOf = (body: { session: { positions: PositionView[] } | null }, contract: string) => body.session?.positions.find((position) => position.contract === contract)
  // The quotes reach the session's market data by the broker's push: read until the moved prices are used.
  await eventually(async () => {
    const body = await read()
    return positionOf(body, 'MNQZ6')?.marketPrice === '21010' && positionOf(body, 'MESZ6')?.marketPrice === '6003'
  })
  const body = await read()
  t.match(body, { success: true, state: 'live', detail: null, session: { account: 'DEMO9000', heardAt: String } })

  const ours = positionOf(body, 'MNQZ6')!
  t.match(ours, { side: 'LONG', quantity: Number(trade.quantity), ours: true, tradeIds: [String(trade.id)], marketPriceAt: String })
  const expected = (21010 - Number(ours.averagePrice)) * Number(trade.quantity) * 2
  t.equal(Number(ours.averagePrice), Number(trade.entry_price), "the broker's average price is our entry")
  t.equal(Number(ours.unrealizedPnl), expected, `(21010 - entry) x ${trade.quantity} x $2 = ${expected}`)
  t.not(expected, 0, 'the move is a real one')

  const byHand = positionOf(body, 'MESZ6')!
  t.match(byHand, { side: 'LONG', quantity: 2, ours: false, tradeIds: [], averagePrice: '6000' })
  t.equal(Number(byHand.unrealizedPnl), 30, '(6003 - 6000) x 2 x $5, though none of our trades holds it')

  const working: OrderView[] = body.session.workingOrders
  t.match(working.find((order) => order.id === String(restingId)), { contract: 'MNQZ6', side: 'Buy', type: 'Limit', quantity: 1, price: '19000', status: 'Working', ours: false, recordId: null })
  const legs = working.filter((order) => order.ours)
  t.ok(legs.some((order) => order.type === 'Stop' && order.stopPrice !== null && order.side === 'Sell'), 'our stop leg, working')
  t.ok(legs.every((order) => order.recordId === String(record.id)), 'our orders name the alert record')

  t.match(body.session.broker, { brokerCash: String })
  t.match(body.computed, { balance: String, todayRealizedPnl: '0.00', startingBalance: String })
  t.equal(Number(body.computed.balance), Number(body.computed.startingBalance), 'nothing closed yet: our balance is the starting balance')

  // The order history: our entry filled at its price, the resting limit once cancelled.
  await app.feeds.session('u-0')!.cancelOrder(restingId)
  await eventually(async () => {
    const history = (await app.inject({ method: 'GET', url: '/api/broker/orders?limit=20', headers })).json()
    return history.session.orders.some((order: OrderView) => order.id === String(restingId) && order.status === 'Canceled')
  })
  const history = (await app.inject({ method: 'GET', url: '/api/broker/orders?limit=20', headers })).json()
  t.match(history, { success: true, state: 'live', commissions: undefined, session: { account: 'DEMO9000', commissions: '0' } }, 'the paper broker charges nothing unless told to: every fee is 0')
  const entryOrder = history.session.orders.find((order: OrderView) => order.id === String(record.entry_order_id))
  t.match(entryOrder, { status: 'Filled', ours: true, recordId: String(record.id), type: 'Market', contract: 'MNQZ6' })
  t.match(history.session.fills.find((fill: { orderId: string }) => fill.orderId === String(record.entry_order_id)), { side: 'Buy', quantity: Number(trade.quantity), at: String })
  t.equal(Number(history.session.fills.find((fill: { orderId: string }) => fill.orderId === String(record.entry_order_id)).price), Number(trade.entry_price))

  const limited = (await app.inject({ method: 'GET', url: '/api/broker/orders?limit=1', headers })).json()
  t.equal(limited.session.orders.length, 1, 'limit keeps the latest orders only')
  const bad = await app.inject({ method: 'GET', url: '/api/broker/orders?limit=0', headers })
  t.equal(bad.statusCode, 400, 'a limit out of range is a 4xx')
})

t.test("commissions: each fill's fee as the broker reports it (fillFee), the total, and each trade's commission and net pnl (issue 25, item 3)", async (t) => {
  const broker = await paperBroker(t, { commissionPerContract: '0.52' })
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  // The target (21100) fills: the trade closes at the broker's fill.
  broker.setPrice('MNQZ6', '21100')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  const trade = (await tradeOfRecord(db, record.id))!
  const contracts = Number(trade.quantity)
  t.ok(contracts > 0)

  const headers = identityHeaders(config, 'u-0')
  const answer = await app.inject({ method: 'GET', url: '/api/broker/orders?limit=20', headers })
  t.equal(answer.statusCode, 200, answer.body)
  const history = answer.json()
  const fills: Array<{ quantity: number; commission: string | null }> = history.session.fills
  t.equal(fills.length, 2, 'the entry fill and the target fill')
  for (const fill of fills) t.equal(Number(fill.commission), 0.52 * fill.quantity, `each fill: $0.52 x ${fill.quantity}`)
  t.equal(Number(history.session.commissions), 2 * 0.52 * contracts, 'the total of the listed fills')
  const mine = history.session.tradeCommissions.find((one: { tradeId: string }) => one.tradeId === String(trade.id))
  t.match(mine, { status: 'closed', contract: 'MNQZ6', side: 'LONG', quantity: contracts, pnl: String })
  t.equal(Number(mine.commission), 2 * 0.52 * contracts, 'the trade: its entry fill and its exit fill')
  t.equal(Number(mine.pnl), Number(trade.pnl), 'gross pnl as the trades list has it')
  t.equal(Number(mine.netPnl), Number((Number(trade.pnl) - 2 * 0.52 * contracts).toFixed(2)), 'net of the commission')
  t.not(Number(mine.netPnl), Number(mine.pnl), 'a real difference')
})

t.test('broker positions and orders without a broker session: 200, state no_session, said plainly', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-1', username: 'trader1' })
  const headers = identityHeaders(config, 'u-1')
  const positions = await app.inject({ method: 'GET', url: '/api/broker/positions', headers })
  t.equal(positions.statusCode, 200, positions.body)
  t.match(positions.json(), { success: true, state: 'no_session', detail: /no broker session is open|broker connection is down/, session: null, computed: { balance: String } })
  const orders = await app.inject({ method: 'GET', url: '/api/broker/orders', headers })
  t.equal(orders.statusCode, 200, orders.body)
  t.match(orders.json(), { success: true, state: 'no_session', session: null })
  t.equal((await app.inject({ method: 'GET', url: '/api/broker/positions' })).statusCode, 401, 'signed-in users only')
})

t.test('alert steps: every step of our record with its time; another user gets 404', async (t) => {
  const { app, db, config } = await connectedTrader(t)
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  const trade = (await tradeOfRecord(db, record.id))!

  const response = await app.inject({ method: 'GET', url: `/api/alerts/${record.id}/steps`, headers: identityHeaders(config, 'u-0') })
  t.equal(response.statusCode, 200, response.body)
  const body = response.json()
  t.match(body, { success: true, id: String(record.id), alertId: entry.alertId, status: 'placed' })
  const steps: { step: string; at: string; detail: string; tradeId: string | null }[] = body.steps
  // The fill may be recorded before the broker's answer to the order: the steps are in time order.
  t.same([...steps.map((step) => step.step)].sort(), ['accepted', 'decided', 'filled', 'received', 'sent'])
  t.equal(steps[0]?.step, 'received')
  const times = steps.map((step) => Date.parse(step.at))
  t.same(times, [...times].sort((a, b) => a - b), 'times ascend')
  const step = (name: string) => steps.find((one) => one.step === name)
  t.match(step('decided'), { detail: /^placing \d+ x MNQZ6$/ })
  t.match(step('sent'), { detail: /^order sig-\d+ sent to the broker \(attempt 1\)$/ })
  t.match(step('accepted'), { detail: `the broker accepted entry order ${record.entry_order_id}`, at: record.placed_at!.toISOString() })
  t.match(step('filled'), { tradeId: String(trade.id), detail: `entry filled: LONG ${Number(trade.quantity)} at 21000`, at: trade.opened_at.toISOString() })
  t.equal(step('received')?.at, record.received_at.toISOString())

  await liveTrader(db, config, { userId: 'u-1', username: 'trader1' })
  const foreign = await app.inject({ method: 'GET', url: `/api/alerts/${record.id}/steps`, headers: identityHeaders(config, 'u-1') })
  t.equal(foreign.statusCode, 404, "another user's record is not found")
  t.equal((await app.inject({ method: 'GET', url: '/api/alerts/abc/steps', headers: identityHeaders(config, 'u-0') })).statusCode, 400)
})

t.test('alert steps: a refused record says why and when it was decided', async (t) => {
  const { app, db, config } = await connectedTrader(t)
  const entry = mnqEntry({ userId: 'u-0', sl: null })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.not(record.status, 'placed')
  const body = (await app.inject({ method: 'GET', url: `/api/alerts/${record.id}/steps`, headers: identityHeaders(config, 'u-0') })).json()
  t.same(body.steps.map((step: { step: string }) => step.step), ['received', 'decided'])
  t.match(body.steps[1], { detail: new RegExp(`^${record.status.replace('_', ' ')}: .+`) })
})
