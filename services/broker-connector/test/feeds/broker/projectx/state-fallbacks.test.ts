import t from 'tap'
import { eventually, openSession, projectXBroker } from './helper.ts'

// The hub-kept state against a hub slower than the session's wait, a trade made on the platform, a balance
// change while the session opens, and a working order older than the day's search (docs/decisions/projectx-adapter.md).

t.test('past the wait the read is REST, and so are the reads after it until the hub shows the request: none goes back in time', async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.delayUserHub(1500)
  const placed = await session.placeBracket({ tag: 'sig-1', contract, action: 'Buy', quantity: 2, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  const fills = await session.listFills()
  t.same(fills.map((fill) => [fill.orderId, fill.quantity]), [[placed.entryOrderId, 2]], 'first read (REST after the wait): the fill')
  const positions = await session.listPositions()
  t.same(positions.map((position) => position.netPos), [2], 'second read, right after: the position the broker holds')
  const orders = await session.listOrders()
  t.equal(orders.find((order) => order.id === placed.entryOrderId)?.status, 'Filled', 'third read: the entry filled')
})

t.test('a trade made on the platform (no request of ours): a fresh read sees it before the hub tells it', async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker)
  broker.delayUserHub(800)
  const orderId = broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 0, size: 1 })
  t.equal(broker.positions().find((position) => position.accountId === 7000)?.netPos, 1, 'the broker holds 1')
  t.same((await session.listPositions({ fresh: true })).map((position) => position.netPos), [1], 'what a sized close or the kill switch reads')
  t.equal((await session.listOrders({ fresh: true })).find((order) => order.id === orderId)?.status, 'Filled', 'and the order the trade came from')
  await eventually(async () => (await session.listPositions()).length === 1)
  t.pass('the state has it once the hub tells it')
})

t.test("a balance change between the snapshot's Account/search and SubscribeAccounts is in the session's balance and snapshot", async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 0, size: 1 })
  broker.delay('Account/search', 600)
  const opening = openSession(t, broker)
  await eventually(() => broker.requests.some((request) => request.endpoint === 'Account/search'))
  broker.setPrice('MNQZ6', '21100')
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 1 })
  const { session } = await opening
  broker.delay('Account/search', 0)
  const fresh = await openSession(t, broker, undefined, {})
  const truth = await fresh.session.cashBalance()
  t.not(truth, '50000', 'the broker realized the hand trade: ' + truth)
  t.equal(await session.cashBalance(), truth, 'the first session shows the balance the broker holds')
  t.equal(session.snapshot.cashBalance, truth, "and its snapshot (the trade keeper's balance for sizing until the next account event)")
})

t.test('a working order placed more than 24 h ago (GTC) is in the snapshot and the reads', async (t) => {
  let clock = Date.now() - 25 * 3_600_000
  const broker = await projectXBroker(t, { now: () => new Date(clock) })
  broker.setPrice('MNQZ6', '21000')
  const earlier = await openSession(t, broker)
  const contract = await earlier.session.findContract('MNQZ6')
  const placed = await earlier.session.placeBracket({ tag: 'sig-gtc', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20000', stopPrice: '19950', targetPrice: '20100' })
  earlier.session.close()
  clock = Date.now()
  const { session } = await openSession(t, broker)
  const working = (orders: readonly { id: number; status: string }[]) => orders.find((order) => order.id === placed.entryOrderId)?.status
  t.equal(working(session.snapshot.orders), 'Working', 'the snapshot holds the day-old working entry')
  t.equal(working(await session.listOrders()), 'Working', 'the read from the state too')
  t.equal(working(await session.listOrders({ fresh: true })), 'Working', 'and the fresh read')
})
