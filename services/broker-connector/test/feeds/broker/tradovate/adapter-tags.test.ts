import t from 'tap'
import type { BrokerEvent } from '../../../../src/feeds/broker/broker-adapter.ts'
import { paperBroker, openSession, until } from './helper.ts'

// Tradovate's Order entity has no clOrdId (the paper broker now sends none either): every tag the adapter
// reports comes from the New command that placed the order.

const orderEvents = (events: BrokerEvent[]) => events.filter((event) => event.type === 'order' && event.eventType === 'Created').map((event) => (event.type === 'order' ? [event.order.id, event.order.tag] : []))
const bracket = (tag: string) => ({ tag, action: 'Buy' as const, quantity: 1, entryType: 'Market' as const, entryPrice: null, stopPrice: '20950', targetPrice: '21050' })

t.test('listOrders joins order/list with command/list; the snapshot joins its commands', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ ...bracket('rec-a'), contract })
  t.ok(broker.orders().length === 3)
  const listed = await session.listOrders()
  t.same(listed.map((order) => [order.id, order.tag]), [[placed.entryOrderId, 'rec-a'], [placed.stopOrderId, 'rec-a.sl'], [placed.targetOrderId, 'rec-a.tp']])
  const endpoints = broker.requests.map((request) => request.endpoint)
  t.ok(endpoints.includes('order/list') && endpoints.includes('command/list'), 'both lists read')
  t.notOk(endpoints.includes('command/deps') || endpoints.includes('command/ldeps'), 'no per-order reads when the list has every command')

  const later = await openSession(t, broker)
  t.same(later.session.snapshot.orders.map((order) => [order.id, order.tag]), [[placed.entryOrderId, 'rec-a'], [placed.stopOrderId, 'rec-a.sl'], [placed.targetOrderId, 'rec-a.tp']], 'a new session sees the tags in its snapshot')
})

t.test('order events carry their tag when the command event comes first (as the broker sends it)', async (t) => {
  const broker = await paperBroker(t)
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ ...bracket('rec-b'), contract })
  await until(() => events.some((event) => event.type === 'fill'))
  t.same(orderEvents(events), [[placed.entryOrderId, 'rec-b'], [placed.stopOrderId, 'rec-b.sl'], [placed.targetOrderId, 'rec-b.tp']])
  t.notOk(broker.requests.some((request) => request.endpoint === 'command/deps'), 'nothing fetched')
})

for (const delivery of ['late', 'withheld'] as const) {
  t.test(`command events ${delivery}: each order event still carries its tag, and no event overtakes it`, async (t) => {
    const broker = await paperBroker(t)
    const { session, events } = await openSession(t, broker)
    const contract = await session.findContract('MNQZ6')
    broker.setPrice('MNQZ6', '21000')
    broker.commandEvents(delivery)
    const placed = await session.placeBracket({ ...bracket(`rec-${delivery}`), contract })
    await until(() => events.some((event) => event.type === 'position' && event.position.netPos === 1))
    t.same(orderEvents(events), [[placed.entryOrderId, `rec-${delivery}`], [placed.stopOrderId, `rec-${delivery}.sl`], [placed.targetOrderId, `rec-${delivery}.tp`]])
    const kinds = events.map((event) => (event.type === 'order' ? `order ${event.order.id} ${event.eventType}` : event.type))
    t.ok(kinds.indexOf(`order ${placed.entryOrderId} Created`) < kinds.indexOf('fill'), 'the entry order is reported before its fill')
    t.ok(kinds.indexOf(`order ${placed.entryOrderId} Created`) < kinds.indexOf(`order ${placed.entryOrderId} Updated`), 'and before its own update')
    const fetched = broker.requests.filter((request) => request.endpoint === 'command/deps').length
    if (delivery === 'withheld') t.ok(fetched >= 1, `command/deps fetched the missing commands (${fetched} requests)`)
    else t.pass(`the late command events or command/deps supplied the tags (${fetched} deps requests)`)
  })
}

t.test('an order whose command cannot be read is never reported untagged: the session ends, and the next one has the tag', async (t) => {
  const broker = await paperBroker(t)
  const { session, events, lost } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.setPrice('MNQZ6', '21000')
  broker.commandEvents('withheld')
  broker.interfere('command/deps', { kind: 'server_error' })
  const placed = await session.placeBracket({ ...bracket('rec-lost'), contract })
  await until(() => lost.length > 0)
  t.match(lost[0], new RegExp(`could not read the command of order ${placed.entryOrderId}`))
  t.same(events, [], 'nothing reported: neither the untagged order nor the events behind it')
  const next = await openSession(t, broker)
  t.same(next.session.snapshot.orders.map((order) => order.tag), ['rec-lost', 'rec-lost.sl', 'rec-lost.tp'], 'the next session reads the tags from its snapshot')
})
