import t from 'tap'
import type { BrokerEvent } from '../../../../src/feeds/broker/broker-adapter.ts'
import { UserEvents } from '../../../../src/feeds/broker/projectx/user-events.ts'
import { eventually } from './helper.ts'

// The user hub's records as ProjectX sends them, mapped and ordered for the trade keeper.

const CONTRACT = 'CON.F.US.MNQ.Z26'
const order = (id: number, fields: object = {}) => ({ id, accountId: 7000, contractId: CONTRACT, status: 1, type: 2, side: 0, size: 1, customTag: null, parentOrderId: null, ...fields })
const trade = (id: number, orderId: number) => ({ id, accountId: 7000, contractId: CONTRACT, creationTimestamp: '2026-11-26T15:00:00Z', price: 21000, profitAndLoss: null, fees: 0, side: 0, size: 1, voided: false, orderId })
const kinds = (events: BrokerEvent[]) => events.map((event) => (event.type === 'order' ? `order ${event.order.id} ${event.order.tag ?? '-'} ${event.eventType}` : event.type === 'fill' ? `fill ${event.fill.orderId}` : event.type))

t.test("an entry's fill goes out after its legs, which ProjectX sends after it", async (t) => {
  const events: BrokerEvent[] = []
  const user = new UserEvents((event) => events.push(event), 5_000)
  user.start(7000)
  user.expectLegs('sig-1', 2)
  user.receive('GatewayUserOrder', order(10, { customTag: 'sig-1' }))
  user.receive('GatewayUserTrade', trade(100, 10))
  user.receive('GatewayUserOrder', order(10, { customTag: 'sig-1', status: 2 }))
  t.same(kinds(events), ['order 10 sig-1 Created'], 'the fill waits')
  user.receive('GatewayUserOrder', order(11, { customTag: 'AutoBracket10-SL', parentOrderId: 10, type: 4, side: 1 }))
  t.same(kinds(events), ['order 10 sig-1 Created', 'order 11 sig-1.sl Created'], 'a leg goes out ahead as it comes; the fill waits for the other')
  user.receive('GatewayUserOrder', { action: 0, data: order(12, { customTag: 'AutoBracket10-TP', parentOrderId: 10, type: 1, side: 1 }) })
  t.same(kinds(events), ['order 10 sig-1 Created', 'order 11 sig-1.sl Created', 'order 12 sig-1.tp Created', 'fill 10', 'order 10 sig-1 Updated'])
  user.close()
})

t.test('a fill whose legs never come goes out after the hold; nothing goes before start; another account is dropped', async (t) => {
  const events: BrokerEvent[] = []
  const user = new UserEvents((event) => events.push(event), 200)
  user.expectLegs('sig-2', 1)
  user.receive('GatewayUserOrder', order(20, { customTag: 'sig-2' }))
  user.receive('GatewayUserOrder', order(30, { accountId: 7001, customTag: 'theirs' }))
  user.receive('GatewayUserTrade', trade(200, 20))
  user.receive('GatewayUserAccount', { id: 7000, name: 'PAPERX7000', balance: 49990.5, canTrade: true })
  t.same(events, [], 'held until the snapshot is taken')
  user.start(7000)
  t.same(kinds(events), ['order 20 sig-2 Created'])
  await eventually(() => events.length === 3, 15_000)
  t.same(kinds(events), ['order 20 sig-2 Created', 'fill 20', 'cashBalance'])
  t.match(events[2], { type: 'cashBalance', accountId: 7000, amount: '49990.5', realizedPnl: null })
  user.close()
})
