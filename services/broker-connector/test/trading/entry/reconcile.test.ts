import t from 'tap'
import type { BrokerOrder } from '../../../src/feeds/broker/broker-adapter.ts'
import { bracketByTag } from '../../../src/trading/entry/reconcile.ts'

const order = (id: number, tag: string | null, parentId: number | null = null): BrokerOrder => ({
  id, accountId: 1, contractId: 7, action: 'Buy', status: 'Working', tag, parentId, text: null,
})

t.test('the bracket a record already has is found by its tags; another record\'s is not', async (t) => {
  const orders = [order(1, 'sig-9'), order(2, 'sig-10'), order(3, 'sig-10.sl', 2), order(4, 'sig-10.tp', 2), order(5, null)]
  t.same(bracketByTag(orders, 'sig-10'), { entryOrderId: 2, stopOrderId: 3, targetOrderId: 4 })
  t.same(bracketByTag(orders, 'sig-9'), { entryOrderId: 1, stopOrderId: null, targetOrderId: null }, 'legs without their tags stay unknown')
  t.equal(bracketByTag(orders, 'sig-1'), null, 'no prefix match: sig-1 is not sig-10')
})
