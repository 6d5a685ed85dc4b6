import t from 'tap'
import { startProjectXPaperBroker } from '../src/index.ts'
import { api, connectHub, login } from './hub-client.ts'

const NOW = new Date('2026-11-20T15:00:00Z')
const now = () => NOW
const MNQ = 'CON.F.US.MNQ.Z26'
const demo = { userName: 'demo', apiKey: 'demo-key', accountId: 7000, accountName: 'PAPERX7000' }

interface Order {
  id: number
  status: number
  type: number
  side: number
  size: number
  limitPrice: number | null
  stopPrice: number | null
  fillVolume: number
  filledPrice: number | null
  customTag: string | null
  parentOrderId: number | null
}

t.test('login, bearer auth, validate, accounts and contracts, with success:false refusals', async (t) => {
  const broker = await startProjectXPaperBroker({ accounts: [demo], now })
  t.teardown(() => broker.close())
  const base = broker.apiUrl
  const wrong = await api(base, '/api/Auth/loginKey', { userName: 'demo', apiKey: 'nope' })
  t.same(wrong, { status: 200, body: { token: null, success: false, errorCode: 3, errorMessage: 'Invalid user name or API key' } }, 'a refusal is HTTP 200 with success:false')
  const token = await login(base)
  t.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the token is a JWT')
  t.equal((await api(base, '/api/Account/search', { onlyActiveAccounts: true })).status, 401, 'no token: 401')
  t.equal((await api(base, '/api/Account/search', {}, `${token}x`)).status, 401, 'a forged token: 401')
  const validated = await api(base, '/api/Auth/validate', {}, token)
  t.match(validated.body, { success: true, errorCode: 0, newToken: String })
  const accounts = await api(base, '/api/Account/search', { onlyActiveAccounts: true }, validated.body.newToken as string)
  t.same(accounts.body, { accounts: [{ id: 7000, name: 'PAPERX7000', balance: 50000, canTrade: true, isVisible: true, simulated: true }], success: true, errorCode: 0, errorMessage: null })
  const search = await api(base, '/api/Contract/search', { searchText: 'NQ', live: false }, token)
  t.same(
    (search.body.contracts as { id: string; name: string; activeContract: boolean }[]).map(({ id, name, activeContract }) => ({ id, name, activeContract })),
    [
      { id: 'CON.F.US.ENQ.Z26', name: 'NQZ6', activeContract: true },
      { id: 'CON.F.US.ENQ.H27', name: 'NQH7', activeContract: false },
    ],
    'NQ finds its front and next contracts, with ProjectX ids',
  )
  const byId = await api(base, '/api/Contract/searchById', { contractId: MNQ }, token)
  t.same(byId.body.contract, { id: MNQ, name: 'MNQZ6', description: 'Micro E-mini Nasdaq-100: December 2026', tickSize: 0.25, tickValue: 0.5, activeContract: true, symbolId: 'F.US.MNQ' })
  t.match((await api(base, '/api/Contract/searchById', { contractId: 'CON.F.US.NOPE.Z26' }, token)).body, { success: false, contract: null })
  const unknown = await api(base, '/api/Order/place', { accountId: 7000, contractId: 'CON.F.US.XX.Z26', type: 2, side: 0, size: 1 }, token)
  t.match(unknown.body, { success: false, errorCode: 8, errorMessage: /contract "CON.F.US.XX.Z26" not found/ })
  const otherAccount = await api(base, '/api/Order/place', { accountId: 1, contractId: MNQ, type: 2, side: 0, size: 1 }, token)
  t.match(otherAccount.body, { success: false, errorCode: 1 })
  const noQuote = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 0, size: 1 }, token)
  t.match(noQuote.body, { success: false, errorCode: 2, errorMessage: /no market price for MNQZ6/ })
})

t.test('a market entry with a bracket, modify, partial close and close, seen through the user hub', async (t) => {
  const broker = await startProjectXPaperBroker({ accounts: [demo], now })
  t.teardown(() => broker.close())
  const base = broker.apiUrl
  const token = await login(base)
  const hub = await connectHub(broker.userHubUrl, token, ['GatewayUserOrder', 'GatewayUserPosition', 'GatewayUserTrade', 'GatewayUserAccount'])
  t.teardown(() => hub.connection.stop())
  await hub.connection.invoke('SubscribeAccounts')
  for (const method of ['SubscribeOrders', 'SubscribePositions', 'SubscribeTrades']) await hub.connection.invoke(method, 7000)
  await t.rejects(hub.connection.invoke('SubscribeOrders', 1), /account 1 not found/, 'another login\'s account is refused')
  t.equal((await api(base, '/dev/prices', { symbol: MNQ, price: '21000' })).status, 200)

  const placed = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 0, size: 2, customTag: 'alert-1', stopLossBracket: { ticks: -20, type: 4 }, takeProfitBracket: { ticks: 40, type: 1 } }, token)
  t.match(placed.body, { success: true, errorCode: 0, errorMessage: null, orderId: Number })
  const entryId = placed.body.orderId as number
  const filled = await hub.next<Order>('GatewayUserOrder', (order) => order.id === entryId && order.status === 2)
  t.match(filled, { type: 2, side: 0, size: 2, fillVolume: 2, filledPrice: 21000, customTag: 'alert-1' })
  t.match(await hub.next('GatewayUserTrade', (trade: { orderId: number }) => trade.orderId === entryId), { price: 21000, size: 2, side: 0, profitAndLoss: null, contractId: MNQ })
  t.match(await hub.next('GatewayUserPosition'), { accountId: 7000, contractId: MNQ, type: 1, size: 2, averagePrice: 21000 })
  const stop = await hub.next<Order>('GatewayUserOrder', (order) => order.customTag === `AutoBracket${entryId}-SL`)
  const target = await hub.next<Order>('GatewayUserOrder', (order) => order.customTag === `AutoBracket${entryId}-TP`)
  t.match(stop, { status: 1, type: 4, side: 1, size: 2, stopPrice: 20995, parentOrderId: entryId })
  t.match(target, { status: 1, type: 1, side: 1, size: 2, limitPrice: 21010, parentOrderId: entryId })

  const duplicate = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 0, size: 1, customTag: 'alert-1' }, token)
  t.match(duplicate.body, { success: false, errorCode: 2, errorMessage: /customTag "alert-1" is already used/ })
  const unsigned = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 0, size: 1, stopLossBracket: { ticks: 20, type: 4 } }, token)
  t.match(unsigned.body, { success: false, errorCode: 2, errorMessage: /negative for a buy/ })

  t.match((await api(base, '/api/Order/modify', { accountId: 7000, orderId: stop.id, stopPrice: 20997.5 }, token)).body, { success: true })
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === stop.id), { stopPrice: 20997.5, status: 1 })
  t.match((await api(base, '/api/Order/modify', { accountId: 7000, orderId: stop.id, stopPrice: 20997.3 }, token)).body, { success: false, errorCode: 3, errorMessage: /not on the MNQZ6 tick/ })

  t.match((await api(base, '/api/Position/partialCloseContract', { accountId: 7000, contractId: MNQ, size: 3 }, token)).body, { success: false, errorCode: 5 })
  await api(base, '/dev/prices', { symbol: 'MNQZ6', price: '21005' })
  t.match((await api(base, '/api/Position/partialCloseContract', { accountId: 7000, contractId: MNQ, size: 1 }, token)).body, { success: true })
  t.match(await hub.next('GatewayUserTrade', (trade: { side: number }) => trade.side === 1), { size: 1, price: 21005, profitAndLoss: 10 }, '5 points x $2 on the closed contract')
  t.match(await hub.next('GatewayUserPosition'), { size: 1, type: 1 })
  t.match(await hub.next('GatewayUserAccount'), { id: 7000, balance: 50010 })
  const open = await api(base, '/api/Position/searchOpen', { accountId: 7000 }, token)
  t.match(open.body.positions, [{ contractId: MNQ, size: 1, type: 1 }])

  t.match((await api(base, '/api/Position/closeContract', { accountId: 7000, contractId: MNQ }, token)).body, { success: true })
  t.match(await hub.next('GatewayUserPosition', (position: { size: number }) => position.size === 0), { contractId: MNQ })
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === stop.id && order.status === 3), {}, 'closing the position cancels its bracket')
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === target.id && order.status === 3), {})
  t.match((await api(base, '/api/Position/closeContract', { accountId: 7000, contractId: MNQ }, token)).body, { success: false, errorCode: 2 }, 'nothing left to close')
  const trades = await api(base, '/api/Trade/search', { accountId: 7000, startTimestamp: '2026-11-20T00:00:00Z' }, token)
  t.same((trades.body.trades as { size: number; side: number }[]).map(({ side, size }) => [side, size]), [[0, 2], [1, 1], [1, 1]])
  const orders = await api(base, '/api/Order/search', { accountId: 7000, startTimestamp: '2026-11-20T00:00:00Z' }, token)
  t.same((orders.body.orders as Order[]).filter((order) => order.customTag === 'alert-1').length, 1, 'Order/search finds the entry by its tag')
})

t.test('limit and stop entries, cancel, partial fills, and a quote on the market hub', async (t) => {
  const broker = await startProjectXPaperBroker({ accounts: [demo], now })
  t.teardown(() => broker.close())
  const base = broker.apiUrl
  const token = await login(base)
  const hub = await connectHub(broker.userHubUrl, token, ['GatewayUserOrder', 'GatewayUserTrade'])
  t.teardown(() => hub.connection.stop())
  await hub.connection.invoke('SubscribeOrders', 7000)
  await hub.connection.invoke('SubscribeTrades', 7000)
  const market = await connectHub(broker.marketHubUrl, token, ['GatewayQuote'], { skipNegotiation: true })
  t.teardown(() => market.connection.stop())
  broker.setPrice('MNQZ6', '21000')
  await market.connection.invoke('SubscribeContractQuotes', MNQ)
  t.match(await market.next('GatewayQuote'), { symbol: 'F.US.MNQ', lastPrice: 21000, bestBid: 21000, bestAsk: 21000 })

  const limit = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 1, side: 0, size: 3, limitPrice: 20990, customTag: 'limit-1' }, token)
  const limitId = limit.body.orderId as number
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === limitId), { status: 1, type: 1, limitPrice: 20990, fillVolume: 0 })
  const open = await api(base, '/api/Order/searchOpen', { accountId: 7000 }, token)
  t.same((open.body.orders as Order[]).map((order) => order.id), [limitId])
  broker.splitNextFill(limitId, 2)
  await api(base, '/dev/prices', { symbol: MNQ, price: '20990' })
  t.match(await market.next('GatewayQuote'), { lastPrice: 20990 }, 'a price change is quoted')
  t.match(await hub.next('GatewayUserTrade', (trade: { orderId: number }) => trade.orderId === limitId), { size: 2, price: 20990 })
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === limitId && order.fillVolume === 2), { status: 1 }, 'partly filled, still open')
  t.match(await hub.next('GatewayUserTrade', (trade: { orderId: number }) => trade.orderId === limitId), { size: 1 })
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === limitId && order.status === 2), { fillVolume: 3, filledPrice: 20990 })

  const stop = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 4, side: 0, size: 1, stopPrice: 21020 }, token)
  const stopId = stop.body.orderId as number
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === stopId), { status: 1, type: 4, stopPrice: 21020 })
  broker.setPrice('MNQZ6', '21020')
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === stopId && order.status === 2), { filledPrice: 21020 })

  const trailing = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 5, side: 1, size: 1, trailDistance: 8 }, token)
  const trailingId = trailing.body.orderId as number
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === trailingId), { status: 1, type: 5, stopPrice: 21018 }, '8 ticks below the market')
  broker.setPrice('MNQZ6', '21030')
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === trailingId && order.stopPrice === 21028), { status: 1 }, 'the stop follows the market up')
  const stopLimit = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 3, side: 0, size: 1, stopPrice: 21040, limitPrice: 21041 }, token)
  const stopLimitId = stopLimit.body.orderId as number
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === stopLimitId), { status: 1, type: 3, stopPrice: 21040, limitPrice: 21041 })
  broker.setPrice('MNQZ6', '21040')
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === stopLimitId && order.status === 2), { filledPrice: 21040 })
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === trailingId && order.stopPrice === 21038), { status: 1 })
  broker.setPrice('MNQZ6', '21036')
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === trailingId && order.status === 2), { filledPrice: 21038 }, 'the trailing stop fills at the level it trailed to')

  const resting = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 1, side: 1, size: 1, limitPrice: 21100 }, token)
  const restingId = resting.body.orderId as number
  t.match((await api(base, '/api/Order/cancel', { accountId: 7000, orderId: restingId }, token)).body, { success: true })
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === restingId && order.status === 3), {})
  t.match((await api(base, '/api/Order/cancel', { accountId: 7000, orderId: restingId }, token)).body, { success: false, errorCode: 3 }, 'a cancelled order cannot be cancelled again')
  t.match((await api(base, '/api/Order/cancel', { accountId: 7000, orderId: 999999 }, token)).body, { success: false, errorCode: 2 })

  const bracketed = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 1, side: 0, size: 1, limitPrice: 20800, stopLossBracket: { ticks: -8, type: 4 }, takeProfitBracket: { ticks: 8, type: 1 } }, token)
  const bracketedId = bracketed.body.orderId as number
  await api(base, '/api/Order/cancel', { accountId: 7000, orderId: bracketedId }, token)
  t.match(await hub.next<Order>('GatewayUserOrder', (order) => order.id === bracketedId && order.status === 3), {})
  const sentinel = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 1, side: 0, size: 1, limitPrice: 20700 }, token)
  await hub.next<Order>('GatewayUserOrder', (order) => order.id === sentinel.body.orderId)
  t.notOk(hub.received.some(({ args }) => String((args[0] as Order).customTag).startsWith(`AutoBracket${bracketedId}`)), 'legs of an entry cancelled unfilled are never sent')
  const searched = await api(base, '/api/Order/search', { accountId: 7000, startTimestamp: '2026-11-20T00:00:00Z' }, token)
  t.notOk((searched.body.orders as Order[]).some((order) => order.parentOrderId === bracketedId), 'nor listed')
})

t.test('an account on Position Brackets refuses brackets but keeps the order id; the rate limit answers 429', async (t) => {
  const broker = await startProjectXPaperBroker({ accounts: [{ ...demo, bracketMode: 'position' }], now, rateLimit: { limit: 3, windowMs: 60_000 } })
  t.teardown(() => broker.close())
  const base = broker.apiUrl
  const token = await login(base)
  broker.setPrice('MNQZ6', '21000')
  const refused = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 1, size: 1, stopLossBracket: { ticks: 20, type: 4 } }, token)
  t.match(refused.body, { success: false, errorCode: 2, errorMessage: 'Brackets cannot be used with Position Brackets', orderId: Number })
  t.match(broker.orders(), [{ id: refused.body.orderId, ordStatus: 'Rejected' }], 'nothing was placed at the market')
  t.equal((await api(base, '/api/Order/searchOpen', { accountId: 7000 }, token)).status, 200)
  t.equal((await api(base, '/api/Account/search', {}, token)).status, 200)
  const limited = await fetch(`${base}/api/Account/search`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })
  t.equal(limited.status, 429, 'the fourth request in the window is refused')
  t.equal(limited.headers.get('retry-after'), '60')
  t.same(broker.positions(), [], 'the refused bracket order never reached the market')
})

t.test('test controls: an order carried out behind a 5xx is found by its tag, a late one waits for release; a hand-placed order', async (t) => {
  let arrived = () => {}
  const broker = await startProjectXPaperBroker({ accounts: [demo], now, onRequest: (request) => request.endpoint === 'Order/place' && arrived() })
  t.teardown(() => broker.close())
  const base = broker.apiUrl
  const token = await login(base)
  broker.setPrice('MNQZ6', '21000')
  const order = { accountId: 7000, contractId: MNQ, type: 1, side: 0, size: 1, limitPrice: 20900 }
  broker.interfere('Order/place', { kind: 'server_error', carriedOut: true })
  t.equal((await api(base, '/api/Order/place', { ...order, customTag: 'once' }, token)).status, 503, 'the answer is lost')
  t.match((await api(base, '/api/Order/place', { ...order, customTag: 'once' }, token)).body, { success: false, errorCode: 2 }, 'a retry with the same tag places nothing')
  const found = await api(base, '/api/Order/searchOpen', { accountId: 7000 }, token)
  t.same((found.body.orders as Order[]).map((open) => open.customTag), ['once'], 'the order placed behind the 5xx is found by its tag')

  broker.interfere('Order/place', { kind: 'late' })
  const held = new Promise<void>((resolve) => (arrived = resolve))
  const late = api(base, '/api/Order/place', { ...order, customTag: 'late' }, token)
  await held
  t.notOk(broker.orders().some((placed) => placed.clOrdId === 'late'), 'held, not carried out')
  t.equal(broker.release('Order/place'), 1, 'one request was held until released')
  t.match((await late).body, { success: true, orderId: Number })

  const manual = broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 2 })
  const positions = await api(base, '/api/Position/searchOpen', { accountId: 7000 }, token)
  t.match(positions.body.positions, [{ type: 2, size: 2 }], 'a hand-placed sell opens a short')
  t.match(broker.orders().find((placed) => placed.id === manual), { clOrdId: null, ordStatus: 'Filled' })
})

t.test('delayUserHub: the user hub sends its events later than the REST answer, in their order', async (t) => {
  const broker = await startProjectXPaperBroker({ accounts: [demo], now })
  t.teardown(() => broker.close())
  const base = broker.apiUrl
  const token = await login(base)
  const hub = await connectHub(broker.userHubUrl, token, ['GatewayUserOrder', 'GatewayUserTrade'])
  t.teardown(() => hub.connection.stop())
  for (const method of ['SubscribeOrders', 'SubscribeTrades']) await hub.connection.invoke(method, 7000)
  broker.setPrice('MNQZ6', '21000')
  broker.delayUserHub(300)
  const first = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 0, size: 1, customTag: 'slow-1' }, token)
  broker.delayUserHub(0)
  const second = await api(base, '/api/Order/place', { accountId: 7000, contractId: MNQ, type: 2, side: 1, size: 1, customTag: 'slow-2' }, token)
  t.match(second.body, { success: true }, 'both answered')
  t.same(hub.received, [], 'no event yet when the answers came: the first batch is held, and the second waits behind it')
  const trade = await hub.next<{ orderId: number }>('GatewayUserTrade')
  t.equal(trade.orderId, first.body.orderId, 'the first order\'s fill comes first')
  t.equal((await hub.next<{ orderId: number }>('GatewayUserTrade')).orderId, second.body.orderId)
})
