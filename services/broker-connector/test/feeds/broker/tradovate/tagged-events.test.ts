import t from 'tap'
import { BrokerError, type BrokerEvent } from '../../../../src/feeds/broker/broker-adapter.ts'
import { AccountScope } from '../../../../src/feeds/broker/tradovate/account-scope.ts'
import { OrderTags } from '../../../../src/feeds/broker/tradovate/order-tags.ts'
import { TaggedEvents } from '../../../../src/feeds/broker/tradovate/tagged-events.ts'
import { until } from './helper.ts'

const order = (id: number, ordStatus: string) => ({ id, accountId: 70, contractId: 3003611, timestamp: '2026-11-23T10:00:00Z', action: 'Buy', ordStatus, parentId: null, admin: false })
const command = (orderId: number, clOrdId: string | null) => ({ id: 100 + orderId, orderId, timestamp: 'x', commandType: 'New', commandStatus: 'RiskPassed', clOrdId })

t.test('a long session holds the tags of its working orders only: a done order is let go once its event has gone out', async (t) => {
  const tags = new OrderTags()
  const emitted: BrokerEvent[] = []
  const events = new TaggedEvents(tags, async () => [], async () => t.fail('every order is known'), (event) => emitted.push(event), () => t.fail('no fetch fails here'))
  events.start(new AccountScope(70))
  for (let round = 0; round < 1_000; round += 1) {
    const [entry, stop, target] = [round * 3 + 1, round * 3 + 2, round * 3 + 3]
    for (const [id, tag] of [[entry, `sig-${round}`], [stop, `sig-${round}.sl`], [target, `sig-${round}.tp`]] as const) {
      events.receive({ entityType: 'command', eventType: 'Created', entity: command(id, tag) })
      events.receive({ entityType: 'order', eventType: 'Created', entity: order(id, 'Working') })
    }
    events.receive({ entityType: 'order', eventType: 'Updated', entity: order(entry, 'Filled') })
    events.receive({ entityType: 'order', eventType: 'Updated', entity: order(target, 'Filled') })
    events.receive({ entityType: 'order', eventType: 'Updated', entity: order(stop, 'Canceled') })
  }
  events.receive({ entityType: 'command', eventType: 'Created', entity: command(9_001, 'sig-working') })
  events.receive({ entityType: 'order', eventType: 'Created', entity: order(9_001, 'Working') })
  t.equal(emitted.length, 6_001, 'every order event went out')
  t.ok(emitted.every((event) => event.type === 'order' && event.order.tag !== null), 'each with its tag, the done ones included')
  t.equal(tags.size, 1, '3,000 orders done, one working: one tag held')
})

t.test('retainOnly keeps the given orders and forgets the rest', async (t) => {
  const tags = new OrderTags()
  tags.learnAll([command(1, 'a'), command(2, 'b'), command(3, null)])
  tags.retainOnly(new Set([2]))
  t.equal(tags.size, 1)
  t.equal(tags.tagOf(order(2, 'Working')), 'b')
  t.equal(tags.tagOf(order(1, 'Filled')), undefined, 'forgotten: unknown again')
})

const fill = (id: number, orderId: number) => ({ id, orderId, contractId: 3003611, action: 'Buy', qty: 1, price: 21000, timestamp: 'x' })
const props = (entityType: string, entity: unknown, eventType: 'Created' | 'Updated' = 'Created') => ({ entityType, eventType, entity })
const described = (event: BrokerEvent) => (event.type === 'order' ? `order ${event.order.id}` : event.type === 'fill' ? `fill ${event.fill.id}` : event.type === 'position' ? `position ${event.position.accountId}` : `cash ${event.accountId}`)

t.test("another account's events are dropped; nothing goes out before the account is known", async (t) => {
  const tags = new OrderTags()
  const emitted: BrokerEvent[] = []
  const events = new TaggedEvents(tags, async () => [], async () => t.fail('every order is known'), (event) => emitted.push(event), () => t.fail('no fetch fails here'))
  events.receive(props('command', command(1, 'sig-1')))
  events.receive(props('order', order(1, 'Working')))
  t.same(emitted, [], 'held until the snapshot names the account')
  events.start(new AccountScope(70))
  for (let id = 2; id < 1_002; id += 1) {
    events.receive(props('command', command(id, `other-${id}`)))
    events.receive(props('order', { ...order(id, 'Working'), accountId: 71 }))
    events.receive(props('fill', fill(10_000 + id, id)))
    events.receive(props('order', { ...order(id, 'Filled'), accountId: 71 }, 'Updated'))
  }
  events.receive(props('position', { accountId: 71, contractId: 1, netPos: 3 }, 'Updated'))
  events.receive(props('cashBalance', { accountId: 71, amount: 1 }, 'Updated'))
  events.receive(props('fill', fill(5, 1)))
  events.receive(props('position', { accountId: 70, contractId: 1, netPos: 1 }, 'Updated'))
  events.receive(props('cashBalance', { accountId: 70, amount: 2 }, 'Updated'))
  t.same(emitted.map(described), ['order 1', 'fill 5', 'position 70', 'cash 70'], 'only the saved account, in order')
  t.equal(tags.size, 1, "no tag of another account's orders is kept (1,000 of them passed)")
})

t.test('a fill of an order not known yet holds the queue until order/item names its account', async (t) => {
  const tags = new OrderTags()
  const emitted: BrokerEvent[] = []
  const failed: string[] = []
  const asked: number[] = []
  const answers = new Map<number, () => Promise<unknown>>([
    [1, async () => order(1, 'Filled')],
    [2, async () => ({ ...order(2, 'Filled'), accountId: 71 })],
    [3, async () => Promise.reject(new BrokerError('rejected', 'order/item: the broker refused the request (status 404)'))],
    [4, async () => Promise.reject(new BrokerError('unavailable', 'socket closed'))],
  ])
  const events = new TaggedEvents(tags, async () => [], (orderId) => {
    asked.push(orderId)
    return (answers.get(orderId) as () => Promise<unknown>)()
  }, (event) => emitted.push(event), (reason) => failed.push(reason))
  events.start(new AccountScope(70))
  events.receive(props('fill', fill(11, 1)))
  events.receive(props('cashBalance', { accountId: 70, amount: 1 }, 'Updated'))
  t.same(emitted, [], 'the cash behind the fill waits too')
  await until(() => emitted.length === 2)
  t.same(emitted.map(described), ['fill 11', 'cash 70'], 'ours: passed on, in order')
  events.receive(props('fill', fill(12, 2)))
  events.receive(props('fill', fill(13, 3)))
  events.receive(props('fill', fill(14, 1)))
  await until(() => emitted.length === 3)
  t.same(emitted.map(described).slice(2), ['fill 14'], "another account's fill and one of an order the broker does not have are dropped")
  t.same(asked, [1, 2, 3], 'each order read once')
  events.receive(props('fill', fill(15, 4)))
  await until(() => failed.length === 1)
  t.match(failed[0], /^could not read the account of order 4: socket closed/, 'a failed read ends the session')
})
