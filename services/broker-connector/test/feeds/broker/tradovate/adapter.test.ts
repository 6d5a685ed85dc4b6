import t from 'tap'
import { paperBroker, openSession, until, ACCOUNT } from './helper.ts'

t.test('a session: login, authorize, sync snapshot with the account and its cash balance', async (t) => {
  const broker = await paperBroker(t, { startingBalance: '50000' })
  const { session } = await openSession(t, broker)
  t.same(session.snapshot.account, { id: ACCOUNT.accountId, name: ACCOUNT.accountName })
  t.equal(session.snapshot.cashBalance, '50000')
  t.same(session.snapshot.orders, [])
  t.same(broker.sessions(), ['trader'])
  t.equal(await session.cashBalance(), '50000')
  const contract = await session.findContract('MNQZ6')
  t.equal(contract.name, 'MNQZ6')
  t.equal((await session.findContract('mnqz6')).id, contract.id, 'the same id for the same contract')
})

t.test('a bracket is placed with our tag and isAutomated, fills when the price moves, and the target closes it', async (t) => {
  const broker = await paperBroker(t)
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ tag: 'rec-1', contract, action: 'Buy', quantity: 2, entryType: 'Limit', entryPrice: '20990.25', stopPrice: '20950', targetPrice: '21050.5' })
  t.ok(placed.entryOrderId > 0 && placed.stopOrderId !== null && placed.targetOrderId !== null)
  const osoBody = broker.requests.find((request) => request.endpoint === 'order/placeOSO')?.body as Record<string, unknown>
  t.match(osoBody, { accountSpec: 'DEMO70', accountId: 70, clOrdId: 'rec-1', action: 'Buy', symbol: 'MNQZ6', orderQty: 2, orderType: 'Limit', price: 20990.25, isAutomated: true })
  t.match(osoBody.bracket1, { action: 'Sell', clOrdId: 'rec-1.sl', orderType: 'Stop', stopPrice: 20950 })
  t.match(osoBody.bracket2, { action: 'Sell', clOrdId: 'rec-1.tp', orderType: 'Limit', price: 21050.5 })
  const orders = await session.listOrders()
  t.same(orders.map((order) => [order.tag, order.status]), [['rec-1', 'Working'], ['rec-1.sl', 'Suspended'], ['rec-1.tp', 'Suspended']])

  broker.setPrice('MNQZ6', '20985')
  await until(() => events.some((event) => event.type === 'fill' && event.fill.orderId === placed.entryOrderId))
  const entryFill = events.find((event) => event.type === 'fill')
  t.match(entryFill, { type: 'fill', fill: { orderId: placed.entryOrderId, action: 'Buy', quantity: 2, price: '20990.25', contractId: contract.id } }, 'a limit reached by a move fills at its price')
  await until(() => events.some((event) => event.type === 'position' && event.position.netPos === 2))

  broker.setPrice('MNQZ6', '21060')
  await until(() => events.some((event) => event.type === 'fill' && event.fill.orderId === placed.targetOrderId))
  await until(() => events.some((event) => event.type === 'order' && event.order.id === placed.stopOrderId && event.order.status === 'Canceled'))
  t.match(events.filter((event) => event.type === 'fill').at(-1), { fill: { price: '21050.5', action: 'Sell', quantity: 2 } }, 'the target fills at its level')
  // (21050.5 - 20990.25) x 2 contracts x 2 USD per point = 241.00
  await until(() => events.some((event) => event.type === 'cashBalance' && event.amount === '50241'))
  t.equal(await session.cashBalance(), '50241')
  t.same((await session.listOrders()).map((order) => [order.tag, order.status]), [['rec-1', 'Filled'], ['rec-1.sl', 'Canceled'], ['rec-1.tp', 'Filled']])
})

t.test('a short bracket: the market entry fills at the price, a move through the stop fills it at its level and cancels the target', async (t) => {
  const broker = await paperBroker(t)
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ tag: 'rec-2', contract, action: 'Sell', quantity: 1, entryType: 'Market', entryPrice: null, stopPrice: '21020', targetPrice: '20950' })
  await until(() => events.some((event) => event.type === 'position' && event.position.netPos === -1))
  t.match(events.find((event) => event.type === 'fill'), { fill: { orderId: placed.entryOrderId, price: '21000', action: 'Sell' } })
  broker.setPrice('MNQZ6', '21030.75')
  await until(() => events.some((event) => event.type === 'order' && event.order.id === placed.targetOrderId && event.order.status === 'Canceled'))
  t.match(events.filter((event) => event.type === 'fill').at(-1), { fill: { orderId: placed.stopOrderId, price: '21020', action: 'Buy' } }, 'the stop fills at its level')
  // (21000 - 21020) x 1 x 2 = -40 for the short
  t.equal(await session.cashBalance(), '49960')
  t.same(broker.positions().map((position) => position.netPos), [0])
})

t.test('a market entry before any price is refused with a sentence that says how to set one', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('NQH7')
  const refused = await session.placeBracket({ tag: 'rec-3', contract, action: 'Buy', quantity: 1, entryType: 'Market', entryPrice: null, stopPrice: '20000', targetPrice: null }).catch((error: unknown) => error)
  t.match(refused, { name: 'BrokerError', kind: 'rejected', message: 'the broker refused the order: no market price for NQH7 yet; set one with POST /dev/prices' })
  t.same((await session.listOrders()).map((order) => [order.tag, order.status, order.text]), [['rec-3', 'Rejected', 'no market price for NQH7 yet; set one with POST /dev/prices']], 'the refused order can be found by its tag')
})

t.test('prices off the tick and unknown contracts are refused with the reason', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('ESZ6')
  const offTick = await session.placeBracket({ tag: 'rec-4', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '6000.1', stopPrice: '5990', targetPrice: '6010' }).catch((error: unknown) => error)
  t.match(offTick, { kind: 'rejected', message: /6000\.1 is not on the ESZ6 tick \(0\.25\)/ })
  await t.rejects(session.findContract('ZZZ9'), { kind: 'rejected', message: /ZZZ9/ })
  t.same(broker.orders(), [])
})

t.test('liquidation flattens at the current price and cancels the working legs', async (t) => {
  const broker = await paperBroker(t)
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  await session.placeBracket({ tag: 'rec-5', contract, action: 'Buy', quantity: 3, entryType: 'Market', entryPrice: null, stopPrice: '20900', targetPrice: '21100' })
  broker.setPrice('MNQZ6', '21010.5')
  await session.liquidatePosition(contract.id)
  await until(() => events.some((event) => event.type === 'position' && event.position.netPos === 0))
  t.same((await session.listOrders()).map((order) => [order.tag, order.status]), [['rec-5', 'Filled'], ['rec-5.sl', 'Canceled'], ['rec-5.tp', 'Canceled'], [null, 'Filled']])
  t.match(broker.fills().at(-1), { action: 'Sell', qty: 3, price: 21010.5 })
  // 10.5 points x 3 x 2 = 63
  t.equal(await session.cashBalance(), '50063')
  await session.liquidatePosition(contract.id)
  t.equal(broker.fills().length, 2, 'liquidating a flat position places nothing')
})

t.test('cancelling an unfilled entry cancels its legs; cancelling it again is refused', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('GCZ6')
  const placed = await session.placeBracket({ tag: 'rec-6', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '2400.1', stopPrice: '2390', targetPrice: '2420' })
  await session.cancelOrder(placed.entryOrderId)
  t.same((await session.listOrders()).map((order) => order.status), ['Canceled', 'Canceled', 'Canceled'])
  await t.rejects(session.cancelOrder(placed.entryOrderId), { kind: 'rejected', message: /is Canceled/ })
  broker.setPrice('GCZ6', '2380')
  t.same(broker.fills(), [], 'a cancelled bracket never fills')
})

t.test('events reach every synchronised session of the account', async (t) => {
  const broker = await paperBroker(t)
  const first = await openSession(t, broker)
  const second = await openSession(t, broker)
  const contract = await first.session.findContract('MESZ6')
  broker.setPrice('MESZ6', '6000')
  await first.session.placeBracket({ tag: 'rec-7', contract, action: 'Buy', quantity: 1, entryType: 'Market', entryPrice: null, stopPrice: '5990', targetPrice: '6010' })
  await until(() => second.events.some((event) => event.type === 'fill'))
  t.match(second.events.find((event) => event.type === 'order'), { eventType: 'Created', order: { tag: 'rec-7' } })
  const third = await openSession(t, broker)
  t.same(third.session.snapshot.positions.map((position) => position.netPos), [1], 'a later session gets the position in its snapshot')
  t.same(third.session.snapshot.orders.map((order) => order.tag), ['rec-7', 'rec-7.sl', 'rec-7.tp'])
})

t.test('positions and fills as the broker lists them now, the account\'s own; a leg resized with order/modifyorder keeps its type and price', async (t) => {
  const other = { name: 'other', password: 'pw-654321', userId: 8, accountId: 80, accountName: 'DEMO80' }
  const broker = await paperBroker(t, { accounts: [ACCOUNT, other] })
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ tag: 'rec-8', contract, action: 'Buy', quantity: 4, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  broker.placeManualOrder('other', { symbol: 'MNQZ6', action: 'Sell', qty: 2 })
  t.same(await session.listPositions(), [{ accountId: 70, contractId: contract.id, netPos: 4, netPrice: '21000' }])
  t.same((await session.listFills()).map((fill) => [fill.orderId, fill.action, fill.quantity, fill.price]), [[placed.entryOrderId, 'Buy', 4, '21000']], 'the other account\'s fill is not ours')

  await session.resizeOrder(placed.stopOrderId as number, 3)
  const stop = broker.orders().find((order) => order.id === placed.stopOrderId)
  t.match(stop, { orderQty: 3, ordStatus: 'Working' })
  t.match(broker.requests.findLast((request) => request.endpoint === 'order/modifyorder'), { body: { orderId: placed.stopOrderId, orderQty: 3, orderType: 'Stop', stopPrice: 20950, isAutomated: true } })
  broker.setPrice('MNQZ6', '20950')
  t.same(broker.positions().find((position) => position.accountId === 70)?.netPos, 1, 'the resized stop sold 3 of 4')
  await t.rejects(session.resizeOrder(placed.stopOrderId as number, 2), { kind: 'rejected', message: /the broker refused to resize order \d+: order \d+ is Filled/ })
})

t.test("two changes to one order at once never undo each other: a resize and a move of the same stop are made one after the other", async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ tag: 'rec-9', contract, action: 'Buy', quantity: 5, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  const stopId = placed.stopOrderId as number
  // A slow broker: each change is answered late, so both would read the order before either is made.
  broker.delay('order/modifyorder', 300)
  await Promise.all([session.resizeOrder(stopId, 3), session.repriceOrder!(stopId, { stopPrice: '20975' })])
  t.match(broker.orders().find((order) => order.id === stopId), { orderQty: 3, ordStatus: 'Working' }, 'the resize stands')
  t.equal((await session.orderVersions([stopId])).get(stopId)?.stopPrice, '20975', 'and so does the move')
})
