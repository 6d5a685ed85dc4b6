import t from 'tap'
import { buildInstance, eventually, identityHeaders } from '../../helper.ts'
import { connect, feedCommand, liveTrader, paperBroker, tradingApp } from '../../trading-helper.ts'

/**
 * The gateway's request may land on any connector instance: one without the trader's session asks the
 * holder over NATS (as the kill switch does) and answers what the broker says; after the holder let the
 * session go, the state is `no_session`, never a 5xx.
 */
t.test('broker view asked of an instance without the session: read by the holder over NATS', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MESZ6', '6000')
  const holder = await tradingApp(t, broker, {}, { consumers: false })
  await liveTrader(holder.db, holder.config, { userId: 'u-0', username: 'trader0' })
  await connect(holder.app, 'u-0')
  const other = await buildInstance(t, holder.config, { feeds: false, consumers: false })
  broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Sell', symbol: 'MESZ6', orderQty: 1, orderType: 'Market', isAutomated: false, bracket1: { action: 'Buy', orderType: 'Stop', stopPrice: 6100 } })
  const headers = identityHeaders(holder.config, 'u-0')

  const read = async () => (await other.inject({ method: 'GET', url: '/api/broker/positions', headers })).json()
  await eventually(async () => (await read()).session?.positions.length === 1)
  const body = await read()
  t.match(body, { success: true, state: 'live', session: { account: 'DEMO9000', positions: [{ contract: 'MESZ6', side: 'SHORT', quantity: 1, ours: false, tradeIds: [] }] } })
  t.match(body.session.workingOrders, [{ contract: 'MESZ6', side: 'Buy', type: 'Stop', stopPrice: '6100', ours: false }], 'the hand-placed stop, working')
  // NQZ6 has no price: the broker rejects a market order in its own words.
  const refused = broker.placeOso(9000, { accountSpec: 'DEMO9000', accountId: 9000, action: 'Buy', symbol: 'NQZ6', orderQty: 1, orderType: 'Market', isAutomated: false, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 20000 } })
  t.match(refused, { failureReason: 'NoQuote' })
  const orders = (await other.inject({ method: 'GET', url: '/api/broker/orders', headers })).json()
  t.match(orders.session.orders.find((order: { contract: string | null }) => order.contract === 'NQZ6'), { status: 'Rejected', type: 'Market', ours: false, text: /no market price for NQZ6/ }, "a rejection with the broker's words")
  t.match(orders, { state: 'live', session: { fills: [{ contract: 'MESZ6', side: 'Sell', quantity: 1, price: '6000' }] } })

  await feedCommand(holder.app, 'u-0', 'stop')
  await eventually(async () => (await read()).state === 'no_session')
  const none = await other.inject({ method: 'GET', url: '/api/broker/positions', headers })
  t.equal(none.statusCode, 200)
  t.match(none.json(), { state: 'no_session', session: null, detail: String })
})
