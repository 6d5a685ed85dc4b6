import t from 'tap'
import { toBrokerEvent, toBrokerOrder, toSnapshot } from '../../../src/broker/tradovate/mapping.ts'

const order = { id: 5, accountId: 70, contractId: 3003611, timestamp: '2026-11-23T10:00:00Z', action: 'Buy', ordStatus: 'Working', parentId: null, admin: false, clOrdId: 'tag-1' }

t.test('orders: states mapped onto ours, the tag read from clOrdId, malformed entities skipped', async (t) => {
  t.same(toBrokerOrder(order), { id: 5, accountId: 70, contractId: 3003611, action: 'Buy', status: 'Working', tag: 'tag-1', parentId: null, text: null })
  for (const [wire, ours] of [['PendingCancel', 'Working'], ['PendingReplace', 'Working'], ['Completed', 'Filled'], ['Unknown', 'PendingNew'], ['Suspended', 'Suspended']] as const) {
    t.equal(toBrokerOrder({ ...order, ordStatus: wire })?.status, ours, `${wire} is ${ours}`)
  }
  t.equal(toBrokerOrder({ ...order, clOrdId: undefined })?.tag, null, 'an order placed without a tag')
  t.equal(toBrokerOrder({ ...order, ordStatus: 'Sideways' }), null)
  t.equal(toBrokerOrder({ ...order, id: '5' }), null)
  t.equal(toBrokerOrder({ ...order, action: 'Hold' }), null)
  t.equal(toBrokerOrder(null), null)
})

t.test('props events: fills, positions and cash with exact decimal text; other entities ignored', async (t) => {
  t.match(toBrokerEvent({ entityType: 'fill', eventType: 'Created', entity: { id: 1, orderId: 5, contractId: 9, action: 'Sell', qty: 2, price: 21050.5, timestamp: 'x' } }), { type: 'fill', fill: { quantity: 2, price: '21050.5' } })
  t.match(toBrokerEvent({ entityType: 'position', eventType: 'Updated', entity: { accountId: 70, contractId: 9, netPos: -1, netPrice: 1.0855 } }), { type: 'position', position: { netPos: -1, netPrice: '1.0855' } })
  t.match(toBrokerEvent({ entityType: 'position', eventType: 'Updated', entity: { accountId: 70, contractId: 9, netPos: 0, netPrice: 1 } }), { position: { netPrice: null } }, 'a flat position has no price')
  t.same(toBrokerEvent({ entityType: 'cashBalance', eventType: 'Updated', entity: { accountId: 70, amount: 50068.75 } }), { type: 'cashBalance', accountId: 70, amount: '50068.75' })
  t.match(toBrokerEvent({ entityType: 'order', eventType: 'Updated', entity: order }), { type: 'order', eventType: 'Updated', order: { tag: 'tag-1' } })
  t.equal(toBrokerEvent({ entityType: 'orderVersion', eventType: 'Created', entity: { id: 1 } }), null)
  t.equal(toBrokerEvent({ entityType: 'fill', eventType: 'Updated', entity: { id: 1 } }), null)
})

t.test('the snapshot is the first active account\'s state; no account is no snapshot', async (t) => {
  const snapshot = toSnapshot({
    accounts: [{ id: 1, name: 'OLD', active: false }, { id: 70, name: 'DEMO70', active: true }],
    cashBalances: [{ accountId: 1, amount: 5 }, { accountId: 70, amount: 50000 }],
    orders: [order, { ...order, id: 6, accountId: 1 }],
    positions: [{ accountId: 70, contractId: 9, netPos: 1, netPrice: 21000 }],
    fills: [],
  })
  t.same(snapshot?.account, { id: 70, name: 'DEMO70' })
  t.equal(snapshot?.cashBalance, '50000')
  t.same(snapshot?.orders.map((o) => o.id), [5], "another account's orders are left out")
  t.same(snapshot?.positions.map((p) => p.netPos), [1])
  t.equal(toSnapshot({ accounts: [] }), null)
  t.equal(toSnapshot('nope'), null)
})
