import t from 'tap'
import type { BrokerEvent, BrokerSession } from '../../../../src/feeds/broker/broker-adapter.ts'
import { UserState } from '../../../../src/feeds/broker/projectx/user-state.ts'
import { eventually, openSession, projectXBroker } from './helper.ts'

// Issue 23, item 4: the ProjectX session keeps the account's positions, orders and fills from the user
// hub's events (seeded by the snapshot's REST reads), so the reads of every pass (the risk watchdog, the
// reconciliation, the trader's pages) answer without a REST request. A read made right after one of the
// session's own requests still sees what that request did, however late the hub reports it.

/** The requests the paper broker has seen so far. */
const requestCount = (broker: { requests: readonly unknown[] }) => broker.requests.length
const LIST_ENDPOINTS = ['Order/search', 'Order/searchOpen', 'Trade/search', 'Position/searchOpen', 'Account/search']
const listRequests = (broker: { requests: readonly { endpoint: string }[] }) => broker.requests.filter((request) => LIST_ENDPOINTS.includes(request.endpoint)).length

/** Every read a pass or a page makes, as one picture of the account. */
async function readAll(session: BrokerSession) {
  const [positions, orders, fills, cash] = await Promise.all([session.listPositions(), session.listOrders(), session.listFills(), session.cashBalance()])
  const versions = await session.orderVersions(orders.map((order) => order.id))
  const fees = await session.fillFees(fills.map((fill) => fill.id))
  return { positions, orders, fills, cash, versions, fees }
}

const positionEvent = (events: BrokerEvent[], netPos: number) => events.some((event) => event.type === 'position' && event.position.netPos === netPos)

t.test('positions, orders and fills follow the user hub: opened, changed and closed, working to filled and cancelled; no REST read after the session opened', async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  const placed = await session.placeBracket({ tag: 'sig-1', contract, action: 'Buy', quantity: 2, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  await eventually(() => positionEvent(events, 2))

  const opened = requestCount(broker)
  let seen = await readAll(session)
  t.same(seen.positions.map((position) => [position.contractId, position.netPos, position.netPrice]), [[contract.id, 2, '21000']], 'the position opened')
  t.same(seen.orders.map((order) => [order.tag, order.status]).sort(), [['sig-1', 'Filled'], ['sig-1.sl', 'Working'], ['sig-1.tp', 'Working']], 'the entry filled, its legs working')
  t.same(seen.fills.map((fill) => [fill.orderId, fill.quantity, fill.price]), [[placed.entryOrderId, 2, '21000']], 'its fill')
  const stop = seen.orders.find((order) => order.tag === 'sig-1.sl')!
  t.match(seen.versions.get(stop.id), { orderType: 'Stop', quantity: 2, stopPrice: '20950' }, "the stop's version")
  t.same([...seen.fees.keys()], seen.fills.map((fill) => fill.id), "each fill's fees")
  t.equal(seen.cash, '50000')
  t.equal(requestCount(broker), opened, 'no request at the broker for any of these reads')

  // The trader adds one by hand on the platform: the position changes.
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 0, size: 1 })
  await eventually(() => positionEvent(events, 3))
  const changed = requestCount(broker)
  seen = await readAll(session)
  t.same(seen.positions.map((position) => position.netPos), [3], 'the position grew to 3')
  t.equal(seen.fills.length, 2, 'the hand fill is listed')
  t.equal(requestCount(broker), changed, 'still no request')

  // A resting entry works, then fills when the market comes to it.
  const resting = await session.placeBracket({ tag: 'sig-2', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20990', stopPrice: '20950', targetPrice: '21100' })
  const working = requestCount(broker)
  t.equal((await session.listOrders()).find((order) => order.id === resting.entryOrderId)?.status, 'Working', 'the resting entry is working')
  broker.setPrice('MNQZ6', '20990')
  await eventually(() => positionEvent(events, 4))
  const filled = (await session.listOrders()).find((order) => order.id === resting.entryOrderId)
  t.equal(filled?.status, 'Filled', 'working to filled')
  t.ok((await session.listFills()).some((fill) => fill.orderId === resting.entryOrderId), 'its fill listed')
  t.same((await session.listPositions()).map((position) => [position.netPos, position.netPrice]), [[4, '20997.5']], 'the position and its average price')

  // Another resting entry, cancelled.
  const cancelled = await session.placeBracket({ tag: 'sig-3', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20900', stopPrice: '20850', targetPrice: '21100' })
  await session.cancelOrder(cancelled.entryOrderId)
  const afterCancel = requestCount(broker)
  t.equal((await session.listOrders()).find((order) => order.id === cancelled.entryOrderId)?.status, 'Canceled', 'working to cancelled')
  t.equal(listRequests(broker), 6, 'the only list reads at the broker were the snapshot\'s (Account/search before and after subscribing, Order/search, Order/searchOpen, Trade/search, Position/searchOpen)')
  t.ok(afterCancel > working, 'the orders themselves went to the broker')

  // The trader closes the position on the platform: the position is gone, its legs cancelled.
  broker.liquidate(7000, broker.positions().find((position) => position.accountId === 7000)!.contractId)
  await eventually(() => positionEvent(events, 0))
  const closed = requestCount(broker)
  seen = await readAll(session)
  t.same(seen.positions, [], 'the position closed')
  t.same(seen.orders.filter((order) => order.status === 'Working'), [], 'no order left working')
  t.equal(requestCount(broker), closed, 'no request for the reads')
})

t.test('a read right after our own request sees what it did, however late the hub reports it', async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.delayUserHub(400)
  const placed = await session.placeBracket({ tag: 'sig-1', contract, action: 'Buy', quantity: 2, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  t.same((await session.listFills()).map((fill) => [fill.orderId, fill.quantity]), [[placed.entryOrderId, 2]], 'the market entry\'s fill, read right after the place')
  t.same((await session.listPositions()).map((position) => position.netPos), [2], 'the position it opened')
  t.equal((await session.listOrders()).find((order) => order.id === placed.entryOrderId)?.status, 'Filled')

  // A resting entry of 3 filled for 1 (the market fills one lot per move), then cancelled: the fill made
  // before the cancel is listed when the cancel's answer is in, though the hub tells of both later.
  const liquidity = await fetch(`${broker.apiUrl}/dev/liquidity`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: 'MNQZ6', lots: 1 }) })
  t.equal(liquidity.status, 200)
  const resting = await session.placeBracket({ tag: 'sig-2', contract, action: 'Buy', quantity: 3, entryType: 'Limit', entryPrice: '20990', stopPrice: '20950', targetPrice: '21100' })
  broker.setPrice('MNQZ6', '20990')
  await session.cancelOrder(resting.entryOrderId)
  const fills = (await session.listFills()).filter((fill) => fill.orderId === resting.entryOrderId)
  t.same(fills.map((fill) => fill.quantity), [1], 'the one contract filled before the cancel')
  t.equal((await session.listOrders()).find((order) => order.id === resting.entryOrderId)?.status, 'Canceled', 'and the entry cancelled')

  // A stop moved: its version read right after shows the new price.
  const stop = (await session.listOrders()).find((order) => order.tag === 'sig-1.sl' && order.status === 'Working')!
  await session.repriceOrder!(stop.id, { stopPrice: '20960' })
  t.equal((await session.orderVersions([stop.id])).get(stop.id)?.stopPrice, '20960', 'the stop where it was moved')
  const whole = await fetch(`${broker.apiUrl}/dev/liquidity`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: 'MNQZ6', lots: null }) })
  t.equal(whole.status, 200)
  await session.liquidatePosition(contract.id)
  t.same(await session.listPositions(), [], 'flat right after the flatten')
})

const CONTRACT = 'CON.F.US.MNQ.Z26'
const NOW = new Date().toISOString()
const orderRecord = (id: number, status: number) => ({ id, accountId: 7000, contractId: CONTRACT, creationTimestamp: NOW, status, type: 1, side: 0, size: 1, customTag: null })
const tradeRecord = (id: number, orderId: number) => ({ id, accountId: 7000, contractId: CONTRACT, creationTimestamp: NOW, price: 21000, fees: 0, side: 0, size: 1, voided: false, orderId })

t.test('the state: not answered before its seed; events received meanwhile applied on it in order; a fill ahead of its order waits for it', async (t) => {
  const state = new UserState(200)
  t.equal(await state.settled(), false, 'before the seed, a read goes to REST')
  state.receive('GatewayUserOrder', orderRecord(1, 1))
  state.receive('GatewayUserOrder', orderRecord(1, 2))
  state.receive('GatewayUserPosition', { accountId: 7000, contractId: CONTRACT, type: 1, size: 1, averagePrice: 21000 })
  state.receive('GatewayUserOrder', { ...orderRecord(9, 1), accountId: 7001 })
  state.seed(7000, { orders: [orderRecord(1, 1)], trades: [], positions: [], balance: 50000 })
  t.equal(await state.settled(), true, 'seeded, nothing waited for')
  t.same(state.orders(0).map((order) => [order.id, order.status]), [[1, 2]], 'the order as the last event left it, not as the seed read it; another account\'s left out')
  t.same(state.positions().map((position) => position.size), [1], 'the position the event opened')

  state.receive('GatewayUserTrade', tradeRecord(50, 2))
  const waiting = state.settled()
  state.receive('GatewayUserOrder', orderRecord(2, 2))
  t.equal(await waiting, true, "a read after a fill of an order not held waits for the order's event")
  t.same(state.trades(0).map((trade) => trade.orderId), [2])

  // A cancel whose outcome is unknown and which the hub is slow to show: one read waits, then reads REST;
  // the reads after it go to REST without waiting again until the hub shows it.
  state.wrote('Order/cancel', { orderId: 1 }, null, state.sending())
  t.equal(await state.settled(), false, 'not shown within the wait: the read asks REST')
  const started = Date.now()
  t.equal(await state.settled(), false, 'the next read asks REST too: the state still lacks the cancel')
  t.ok(Date.now() - started < 150, 'and does not wait again')
  state.receive('GatewayUserOrder', orderRecord(1, 3))
  t.equal(await state.settled(), true, 'the hub showed the cancel: reads answer from the state again')
  state.receive('GatewayUserPosition', { accountId: 7000, contractId: CONTRACT, type: 1, size: 0, averagePrice: 0 })
  t.same(state.positions(), [], 'a position event of size 0 closes it')
})

t.test('the state: a due the hub never shows keeps reads on REST only up to the lag limit', async (t) => {
  const state = new UserState(50, 400)
  state.seed(7000, { orders: [orderRecord(1, 1)], trades: [], positions: [], balance: 50000 })
  // An order placed with its outcome unknown that never reached the broker: the hub never shows its tag.
  state.wrote('Order/place', { customTag: 'sig-lost', type: 2 }, null, state.sending())
  t.equal(await state.settled(), false, 'not shown within the wait: REST')
  t.equal(await state.settled(), false, 'still not shown: REST')
  await new Promise((resolve) => setTimeout(resolve, 450))
  t.equal(await state.settled(), true, 'past the lag limit: the state answers again')
})
