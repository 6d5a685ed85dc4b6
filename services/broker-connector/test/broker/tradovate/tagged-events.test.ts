import t from 'tap'
import type { BrokerEvent } from '../../../src/broker/broker-adapter.ts'
import { OrderTags } from '../../../src/broker/tradovate/order-tags.ts'
import { TaggedEvents } from '../../../src/broker/tradovate/tagged-events.ts'

const order = (id: number, ordStatus: string) => ({ id, accountId: 70, contractId: 3003611, timestamp: '2026-11-23T10:00:00Z', action: 'Buy', ordStatus, parentId: null, admin: false })
const command = (orderId: number, clOrdId: string | null) => ({ id: 100 + orderId, orderId, timestamp: 'x', commandType: 'New', commandStatus: 'RiskPassed', clOrdId })

t.test('a long session holds the tags of its working orders only: a done order is let go once its event has gone out', async (t) => {
  const tags = new OrderTags()
  const emitted: BrokerEvent[] = []
  const events = new TaggedEvents(tags, async () => [], (event) => emitted.push(event), () => t.fail('no fetch fails here'))
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
