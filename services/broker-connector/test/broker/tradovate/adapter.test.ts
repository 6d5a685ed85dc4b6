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
