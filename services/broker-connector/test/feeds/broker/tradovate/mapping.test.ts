import t from 'tap'
import { toBrokerEvent, toBrokerOrder, toSnapshot } from '../../../../src/feeds/broker/tradovate/mapping.ts'
import { AccountScope } from '../../../../src/feeds/broker/tradovate/account-scope.ts'
import { OrderTags } from '../../../../src/feeds/broker/tradovate/order-tags.ts'
import { savedAccount } from '../../../../src/feeds/broker/tradovate/saved-account.ts'

// Tradovate's Order entity has no clOrdId: the tag is on the New command that placed the order.
const order = { id: 5, accountId: 70, contractId: 3003611, timestamp: '2026-11-23T10:00:00Z', action: 'Buy', ordStatus: 'Working', parentId: null, admin: false }
const command = (orderId: number, clOrdId: string | null, commandType = 'New') => ({ id: 100 + orderId, orderId, timestamp: 'x', commandType, commandStatus: 'RiskPassed', clOrdId })
const taggedAs = (entries: [number, string | null][]) => {
  const tags = new OrderTags()
  tags.learnAll(entries.map(([orderId, clOrdId]) => command(orderId, clOrdId)))
  return tags
}
const tags = taggedAs([[5, 'tag-1']])

t.test('orders: states mapped onto ours, the tag from their New command, malformed entities skipped', async (t) => {
  t.same(toBrokerOrder(order, tags), { id: 5, accountId: 70, contractId: 3003611, action: 'Buy', status: 'Working', tag: 'tag-1', parentId: null, text: null })
  for (const [wire, ours] of [['PendingCancel', 'Working'], ['PendingReplace', 'Working'], ['Completed', 'Filled'], ['Unknown', 'PendingNew'], ['Suspended', 'Suspended']] as const) {
    t.equal(toBrokerOrder({ ...order, ordStatus: wire }, tags)?.status, ours, `${wire} is ${ours}`)
  }
  t.equal(toBrokerOrder(order, taggedAs([[5, null]]))?.tag, null, 'an order placed without a tag')
  t.equal(toBrokerOrder({ ...order, ordStatus: 'Sideways' }, tags), null)
  t.equal(toBrokerOrder({ ...order, id: '5' }, tags), null)
  t.equal(toBrokerOrder({ ...order, action: 'Hold' }, tags), null)
  t.equal(toBrokerOrder(null, tags), null)
})

t.test('order tags: New commands only; unknown until a command is seen; a clOrdId on the order is accepted but the command wins', async (t) => {
  const book = new OrderTags()
  t.equal(book.tagOf(order), undefined, 'no command seen: unknown, not untagged')
  t.same(book.unknown([order, { ...order, id: 6 }]), [5, 6])
  book.learn(command(5, 'ignored', 'Cancel'))
  book.learn({ commandType: 'New', orderId: '5', clOrdId: 'bad' })
  t.equal(book.tagOf(order), undefined, 'a Cancel command or a malformed one says nothing')
  book.learn(command(5, ''))
  t.equal(book.tagOf(order), null, 'a New command without a clOrdId: known to have no tag')
  t.equal(book.tagOf({ ...order, id: 7, clOrdId: 'on-order' }), 'on-order', 'a clOrdId on an Order (not Tradovate) is accepted')
  t.equal(taggedAs([[7, 'from-command']]).tagOf({ ...order, id: 7, clOrdId: 'on-order' }), 'from-command')
  const asked: number[][] = []
  await book.complete([order, { ...order, id: 6 }, { ...order, id: 8 }], async (ids) => {
    asked.push([...ids])
    return [command(6, 'six')]
  })
  t.same(asked, [[6, 8]], 'one request for the orders still unknown')
  t.same([6, 8].map((id) => book.tagOf({ ...order, id })), ['six', null], 'an order the broker names no New command for has no tag')
  await book.complete([{ ...order, id: 8 }], async () => t.fail('nothing left to fetch'))
})

t.test('props events: fills, positions and cash with exact decimal text; other entities ignored', async (t) => {
  t.match(toBrokerEvent({ entityType: 'fill', eventType: 'Created', entity: { id: 1, orderId: 5, contractId: 9, action: 'Sell', qty: 2, price: 21050.5, timestamp: 'x' } }, tags), { type: 'fill', fill: { quantity: 2, price: '21050.5' } })
  t.match(toBrokerEvent({ entityType: 'position', eventType: 'Updated', entity: { accountId: 70, contractId: 9, netPos: -1, netPrice: 1.0855 } }, tags), { type: 'position', position: { netPos: -1, netPrice: '1.0855' } })
  t.match(toBrokerEvent({ entityType: 'position', eventType: 'Updated', entity: { accountId: 70, contractId: 9, netPos: 0, netPrice: 1 } }, tags), { position: { netPrice: null } }, 'a flat position has no price')
  t.same(toBrokerEvent({ entityType: 'cashBalance', eventType: 'Updated', entity: { accountId: 70, amount: 50068.75 } }, tags), { type: 'cashBalance', accountId: 70, amount: '50068.75', realizedPnl: null })
  // The day's realized pnl with the trade date it is of (the daily loss limit counts a loss outside our trades).
  t.same(
    toBrokerEvent({ entityType: 'cashBalance', eventType: 'Updated', entity: { accountId: 70, amount: 48800, realizedPnL: -1200.5, tradeDate: { year: 2026, month: 3, day: 9 } } }, tags),
    { type: 'cashBalance', accountId: 70, amount: '48800', realizedPnl: { tradeDate: '2026-03-09', pnl: '-1200.5' } },
  )
  t.match(toBrokerEvent({ entityType: 'order', eventType: 'Updated', entity: order }, tags), { type: 'order', eventType: 'Updated', order: { tag: 'tag-1' } })
  t.equal(toBrokerEvent({ entityType: 'orderVersion', eventType: 'Created', entity: { id: 1 } }, tags), null)
  t.equal(toBrokerEvent({ entityType: 'command', eventType: 'Created', entity: command(9, 'x') }, tags), null, 'commands only teach tags (TaggedEvents)')
  t.equal(toBrokerEvent({ entityType: 'fill', eventType: 'Updated', entity: { id: 1 } }, tags), null)
})

t.test("the snapshot is the saved account's state: orders, positions and cash by account, fills by their order's account", async (t) => {
  const scope = new AccountScope(70)
  const sync = {
    accounts: [{ id: 1, name: 'OTHER', active: true }, { id: 70, name: 'DEMO70', active: true }],
    cashBalances: [{ accountId: 1, amount: 5, realizedPnL: 9, tradeDate: { year: 2026, month: 11, day: 26 } }, { accountId: 70, amount: 50000, realizedPnL: -25, tradeDate: { year: 2026, month: 11, day: 26 } }],
    orders: [order, { ...order, id: 6, accountId: 1 }],
    positions: [{ accountId: 1, contractId: 9, netPos: -3, netPrice: 20000 }, { accountId: 70, contractId: 9, netPos: 1, netPrice: 21000 }],
    fills: [5, 6, 7].map((orderId) => ({ id: 100 + orderId, orderId, contractId: 9, action: 'Buy', qty: 1, price: 21000, timestamp: 'x' })),
  }
  for (const entity of sync.orders) scope.noteOrder(entity)
  const snapshot = toSnapshot(sync, tags, { id: 70, name: 'DEMO70' }, scope)
  t.same(snapshot.account, { id: 70, name: 'DEMO70' })
  t.equal(snapshot.cashBalance, '50000')
  t.same(snapshot.realizedPnl, { tradeDate: '2026-11-26', pnl: '-25' }, "the saved account's day figure")
  t.same(snapshot.orders.map((o) => o.id), [5], "another account's orders are left out")
  t.same(snapshot.positions.map((p) => p.netPos), [1])
  t.same(snapshot.fills.map((f) => f.orderId), [5], "another account's fill and a fill of an order not known are left out")
  t.same(toSnapshot('nope', tags, { id: 70, name: 'DEMO70' }, scope), { account: { id: 70, name: 'DEMO70' }, orders: [], fills: [], positions: [], cashBalance: null, realizedPnl: null })
})

t.test('the saved account: by name or id, exactly; none, two or a closed one is refused with the active names', async (t) => {
  const accounts = [{ id: 1, name: 'DEMO1', active: true }, { id: 70, name: 'DEMO70', active: true }, { id: 9, name: 'OLD', active: false }, { id: 10, name: 'GONE', active: true, archived: true }, { id: 'x', name: 'BAD' }]
  t.same(savedAccount(accounts, 'DEMO70'), { id: 70, name: 'DEMO70' })
  t.same(savedAccount(accounts, '70'), { id: 70, name: 'DEMO70' })
  t.same(savedAccount(accounts, '  DEMO1\t'), { id: 1, name: 'DEMO1' }, 'surrounding spaces ignored')
  t.throws(() => savedAccount(accounts, 'demo70'), { kind: 'account_not_found', message: 'the broker login has no account "demo70" (its active accounts: DEMO1, DEMO70); save one of these as the account' })
  t.throws(() => savedAccount(accounts, 'OLD'), { kind: 'account_not_found', message: /^the broker account OLD is not active/ })
  t.throws(() => savedAccount(accounts, 'GONE'), { kind: 'account_not_found', message: /^the broker account GONE is not active/ }, 'an archived account is closed')
  t.throws(() => savedAccount(accounts, 'BAD'), { kind: 'account_not_found', message: /^the broker login has no account "BAD"/ }, 'an account without a numeric id is not one')
  t.throws(() => savedAccount([{ id: 1, name: '70' }, { id: 70, name: 'DEMO70' }], '70'), { kind: 'account_not_found', message: /^"70" names two accounts/ })
  t.throws(() => savedAccount([], 'DEMO70'), { message: 'the broker login has no account "DEMO70" (it has no active account)' })
  const many = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, name: `D${i + 1}`, active: true }))
  t.throws(() => savedAccount(many, 'X'), { message: /D10, \.\.\.\); save one/ }, 'ten names at most')
})
