import t from 'tap'
import { formatRequest } from '@signals/tradovate-wire'
import { startPaperBroker } from '../src/index.ts'
import { messages, open, post, tokenRequest } from './wire-client.ts'

const account = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }

t.test('access token, open frame, authorize, sync request and heartbeats, as Tradovate speaks them', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], heartbeatMs: 50 })
  t.teardown(() => broker.close())
  const response = await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456', appId: 'a', appVersion: '1', cid: 1, sec: 's', deviceId: 'd' })
  t.equal(response.status, 200)
  const token = (await response.json()) as { accessToken: string; userId: number; expirationTime: string }
  t.match(token, { accessToken: String, userId: 7, name: 'trader', userStatus: 'Active' })

  const { socket, next } = await open(broker.wsUrl)
  t.teardown(() => socket.close())
  t.equal(await next((f) => f === 'o'), 'o', 'the open frame comes first')
  socket.send(formatRequest('user/syncrequest', 1, '{}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 1, s: 401, d: 'Not authorized' }], 'nothing before authorize')
  socket.send(formatRequest('authorize', 2, 'not-a-token'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 2, s: 401, d: 'Access is denied' }])
  socket.send(formatRequest('authorize', 3, token.accessToken))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 3, s: 200 }])
  socket.send(formatRequest('user/syncrequest', 4, '{"users":[7]}'))
  const sync = messages(await next((f) => f.startsWith('a')))[0] as { i: number; s: number; d: { accounts: { name: string }[] } }
  t.match(sync, { i: 4, s: 200 })
  t.equal(sync.d.accounts[0]?.name, 'DEMO70')
  t.same(broker.sessions(), ['trader'])
  t.equal(await next((f) => f === 'h'), 'h', 'the server sends heartbeats')
  socket.send('[]')
  socket.send(formatRequest('order/placeStrategy', 5, '{}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 5, s: 404, d: 'Unknown endpoint order/placeStrategy' }], 'a simulator, not a market')
})

t.test('a wrong login is answered like Tradovate: 200 with errorText; bad bodies get a 400', async (t) => {
  const broker = await startPaperBroker({ accounts: [account] })
  t.teardown(() => broker.close())
  const wrong = await tokenRequest(broker.restUrl, { name: 'trader', password: 'nope' })
  t.equal(wrong.status, 200)
  t.same(await wrong.json(), { errorText: 'Incorrect username or password. Please try again.' })
  const missing = await tokenRequest(broker.restUrl, { name: 'trader' })
  t.equal(missing.status, 400)
  const malformed = await fetch(`${broker.restUrl}/auth/accesstokenrequest`, { method: 'POST', body: '{' })
  t.equal(malformed.status, 400)
  t.same(broker.tokenRequests, [{ name: 'trader', ok: false }], 'requests are recorded without passwords')
})

t.test('the development price endpoint moves the market; bad input is a 400 that says what was wrong', async (t) => {
  const broker = await startPaperBroker({ accounts: [account] })
  t.teardown(() => broker.close())
  const base = broker.restUrl.replace(/\/v1$/, '')
  const set = await post(`${base}/dev/prices`, { symbol: 'mnqz6', price: '21000.25' })
  t.equal(set.status, 200)
  t.same(await set.json(), { symbol: 'MNQZ6', price: '21000.25' })
  t.same(await (await post(`${base}/dev/prices`, { symbol: 'ESZ6', price: 6000.5 })).json(), { symbol: 'ESZ6', price: '6000.5' }, 'a JSON number is taken too')
  t.same(await (await fetch(`${base}/dev/prices`)).json(), { prices: { MNQZ6: '21000.25', ESZ6: '6000.5' } })
  t.equal(broker.price('MNQZ6'), '21000.25')
  for (const [body, text] of [
    [{ price: '1' }, 'symbol is required (a dated contract such as MNQZ6)'],
    [{ symbol: 'MNQZ6' }, 'price is required (decimal text such as "21000.25")'],
    [{ symbol: 'MNQZ6', price: '21000.1' }, 'price 21000.1 is not on the MNQZ6 tick (0.25)'],
    [{ symbol: 'NQ1!', price: '1' }, 'unknown contract "NQ1!" (a dated contract such as MNQZ6)'],
  ] as const) {
    const refused = await post(`${base}/dev/prices`, body)
    t.equal(refused.status, 400)
    t.same(await refused.json(), { errorText: text })
  }
  const malformed = await fetch(`${base}/dev/prices`, { method: 'POST', body: '{' })
  t.equal(malformed.status, 400)
  t.throws(() => broker.setPrice('MNQZ6', '-1'), { message: 'price must be above zero' })
})

t.test('without development endpoints there is no price endpoint', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], devEndpoints: false })
  t.teardown(() => broker.close())
  t.equal((await post(`${broker.restUrl.replace(/\/v1$/, '')}/dev/prices`, { symbol: 'MNQZ6', price: '1' })).status, 404)
})

t.test('token renewal answers GET and POST with a new token for the same session; an unknown token is refused', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], tokenTtlMs: 60_000 })
  t.teardown(() => broker.close())
  const first = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { accessToken: string; expirationTime: string }
  const viaGet = await fetch(`${broker.restUrl}/auth/renewaccesstoken`, { headers: { authorization: `Bearer ${first.accessToken}` } })
  t.equal(viaGet.status, 200)
  const renewed = (await viaGet.json()) as { accessToken: string; expirationTime: string; userId: number }
  t.not(renewed.accessToken, first.accessToken)
  t.equal(renewed.userId, 7)
  const viaPost = await post(`${broker.restUrl}/auth/renewaccesstoken`, {}, { authorization: `Bearer ${renewed.accessToken}` })
  t.equal(viaPost.status, 200)
  const refused = await fetch(`${broker.restUrl}/auth/renewaccesstoken`, { headers: { authorization: 'Bearer nope' } })
  t.equal(refused.status, 401)
  t.same(broker.renewals, [{ name: 'trader' }, { name: 'trader' }])
})

t.test('test controls: a penalty ticket honoured only after its time, 429 and 5xx, and the onRequest hook', async (t) => {
  const seen: string[] = []
  const broker = await startPaperBroker({ accounts: [account], onRequest: (request) => seen.push(`${request.transport} ${request.endpoint} ${request.name ?? '-'}`) })
  t.teardown(() => broker.close())
  broker.interfere('auth/accesstokenrequest', { kind: 'penalty', seconds: 60 })
  const penalty = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as Record<string, unknown>
  t.match(penalty, { 'p-ticket': String, 'p-time': 60 })
  const early = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456', 'p-ticket': penalty['p-ticket'] })).json()) as Record<string, unknown>
  t.match(early, { 'p-ticket': String, 'p-time': Number }, 'resent before its time: another ticket')
  t.notOk('accessToken' in early)
  broker.interfere('auth/accesstokenrequest', { kind: 'rate_limit' })
  t.equal((await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).status, 429)
  broker.interfere('auth/accesstokenrequest', { kind: 'server_error', status: 502 })
  t.equal((await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).status, 502)
  t.match(await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json(), { accessToken: String }, 'interferences are used up')
  t.equal(seen.length, 5)
  t.ok(seen.every((line) => line === 'rest auth/accesstokenrequest trader'))
  t.notOk(JSON.stringify(broker.requests).includes('pw-123456'), 'no password in the request log')
})

t.test('order tags over the wire: no clOrdId on an Order, the New command has it (list, deps, ldeps, snapshot, an event before the order)', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], heartbeatMs: 1_000 })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')
  const token = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { accessToken: string }
  const { socket, next } = await open(broker.wsUrl)
  t.teardown(() => socket.close())
  await next((f) => f === 'o')
  let id = 0
  const ask = async (endpoint: string, body: unknown, query = '') => {
    const i = ++id
    socket.send(formatRequest(endpoint, i, body === null ? '' : JSON.stringify(body), query))
    const frame = await next((f) => f.startsWith('a') && messages(f).some((m) => 'i' in m && m.i === i))
    return { answer: messages(frame).find((m) => 'i' in m && m.i === i) as { s: number; d: unknown }, frame }
  }
  socket.send(formatRequest('authorize', ++id, token.accessToken))
  await next((f) => f.startsWith('a'))
  await ask('user/syncrequest', { users: [7] })

  const oso = { accountSpec: 'DEMO70', accountId: 70, clOrdId: 'sig-9', action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Limit', price: 20990, isAutomated: true, bracket1: { action: 'Sell', clOrdId: 'sig-9.sl', orderType: 'Stop', stopPrice: 20950 } }
  const placed = (await ask('order/placeOSO', oso)).answer.d as { orderId: number; oso1Id: number }
  const events = messages(await next((f) => f.startsWith('a') && f.includes('"props"'))).map((m) => (m as { d: { entityType: string; entity: { id: number; orderId?: number } } }).d)
  t.same(
    events.map((event) => `${event.entityType} ${event.entity.orderId ?? event.entity.id}`),
    [`command ${placed.orderId}`, `order ${placed.orderId}`, `orderVersion ${placed.orderId}`, `command ${placed.oso1Id}`, `order ${placed.oso1Id}`, `orderVersion ${placed.oso1Id}`],
    "each order's New command comes just before it, in the same frame",
  )
  t.match(events[0]?.entity, { orderId: placed.orderId, commandType: 'New', commandStatus: 'RiskPassed', clOrdId: 'sig-9', isAutomated: true })

  const orders = (await ask('order/list', null)).answer.d as Record<string, unknown>[]
  t.same(orders.map((order) => order.id), [placed.orderId, placed.oso1Id])
  t.ok(orders.every((order) => !('clOrdId' in order)), 'an Order entity has no clOrdId, as at Tradovate')
  const tags = (commands: unknown) => (commands as { orderId: number; commandType: string; clOrdId: string }[]).map((c) => [c.orderId, c.commandType, c.clOrdId])
  t.same(tags((await ask('command/list', null)).answer.d), [[placed.orderId, 'New', 'sig-9'], [placed.oso1Id, 'New', 'sig-9.sl']])
  t.same(tags((await ask('command/deps', null, `masterid=${placed.oso1Id}`)).answer.d), [[placed.oso1Id, 'New', 'sig-9.sl']])
  t.same(tags((await ask('command/ldeps', null, `masterids=${placed.orderId},${placed.oso1Id}`)).answer.d), [[placed.orderId, 'New', 'sig-9'], [placed.oso1Id, 'New', 'sig-9.sl']])
  t.same((await ask('command/deps', null, 'masterid=x')).answer.d, [], 'a malformed id names no order')

  const sync = (await ask('user/syncrequest', { users: [7] })).answer.d as { orders: Record<string, unknown>[]; commands: unknown }
  t.ok(sync.orders.length === 2 && sync.orders.every((order) => !('clOrdId' in order)))
  t.same(tags(sync.commands), [[placed.orderId, 'New', 'sig-9'], [placed.oso1Id, 'New', 'sig-9.sl']], 'the snapshot carries the commands')
  t.same(broker.orders().map((order) => order.clOrdId), ['sig-9', 'sig-9.sl'], "the test accessor joins each order's tag")

  broker.commandEvents('late')
  const later = (await ask('order/placeOSO', { ...oso, clOrdId: 'sig-10', bracket1: { ...oso.bracket1, clOrdId: 'sig-10.sl' } })).answer.d as { orderId: number }
  const first = messages(await next((f) => f.startsWith('a') && f.includes('"props"'))).map((m) => (m as { d: { entityType: string } }).d.entityType)
  const second = messages(await next((f) => f.startsWith('a') && f.includes('"props"'))).map((m) => (m as { d: { entityType: string; entity: { clOrdId?: string } } }).d)
  t.same(first, ['order', 'orderVersion', 'order', 'orderVersion'], 'late: the orders first')
  t.same(second.map((event) => `${event.entityType} ${event.entity.clOrdId}`), ['command sig-10', 'command sig-10.sl'], 'then their commands, in a later frame')
  t.ok(later.orderId > placed.oso1Id)
})

t.test('holdEvents: the market events are kept from the sockets while held (answers still go), then sent in order', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], heartbeatMs: 1_000 })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')
  const token = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { accessToken: string }
  const { socket, next, frames } = await open(broker.wsUrl)
  t.teardown(() => socket.close())
  await next((f) => f === 'o')
  let id = 0
  const ask = async (endpoint: string, body: unknown) => {
    const i = ++id
    socket.send(formatRequest(endpoint, i, body === null ? '' : JSON.stringify(body)))
    const frame = await next((f) => f.startsWith('a') && messages(f).some((m) => 'i' in m && m.i === i))
    return messages(frame).find((m) => 'i' in m && m.i === i) as { s: number; d: unknown }
  }
  socket.send(formatRequest('authorize', ++id, token.accessToken))
  await next((f) => f.startsWith('a'))
  await ask('user/syncrequest', { users: [7] })
  broker.holdEvents(true)
  const placed = (await ask('order/placeorder', { accountSpec: 'DEMO70', accountId: 70, clOrdId: 'x-1', action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Market', isAutomated: true })).d as { orderId: number }
  t.ok(placed.orderId > 0, 'answered while the events are held')
  await ask('order/list', null)
  t.notOk(frames.some((f) => f.includes('"props"')), 'no event reached the socket')
  t.equal(broker.positions().find((position) => position.accountId === 70)?.netPos, 1, 'the order filled at the broker all the same')
  broker.holdEvents(false)
  const kinds = messages(await next((f) => f.startsWith('a') && f.includes('"props"'))).map((m) => (m as { d: { entityType: string } }).d.entityType)
  t.ok(kinds.includes('fill') && kinds.includes('position'), 'released: the kept events come, the fill among them')
})

t.test('a login with several accounts: the snapshot lists each, orders go to either, events of both reach its sockets', async (t) => {
  const other = { ...account, accountId: 71, accountName: 'DEMO71' }
  const closed = { ...account, accountId: 72, accountName: 'DEMO72', active: false }
  const stranger = { name: 'stranger', password: 'pw-stranger', userId: 8, accountId: 80, accountName: 'DEMO80' }
  const broker = await startPaperBroker({ accounts: [other, account, closed, stranger], heartbeatMs: 1_000 })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')
  const token = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { accessToken: string; userId: number }
  t.equal(token.userId, 7, 'one login, one user')
  const { socket, next } = await open(broker.wsUrl)
  t.teardown(() => socket.close())
  await next((f) => f === 'o')
  let id = 0
  const ask = async (endpoint: string, body: unknown, query = '') => {
    const i = ++id
    socket.send(formatRequest(endpoint, i, body === null ? '' : JSON.stringify(body), query))
    const frame = await next((f) => f.startsWith('a') && messages(f).some((m) => 'i' in m && m.i === i))
    return messages(frame).find((m) => 'i' in m && m.i === i) as { s: number; d: unknown }
  }
  socket.send(formatRequest('authorize', ++id, token.accessToken))
  await next((f) => f.startsWith('a'))
  const sync = (await ask('user/syncrequest', { users: [7] })).d as { accounts: { id: number; name: string; active: boolean }[]; cashBalances: { accountId: number }[] }
  t.same(sync.accounts.map((a) => [a.id, a.name, a.active]), [[71, 'DEMO71', true], [70, 'DEMO70', true], [72, 'DEMO72', false]], "the login's accounts in their order, the stranger's not")
  t.same(sync.cashBalances.map((cash) => cash.accountId), [71, 70, 72])
  t.same(((await ask('account/list', null)).d as { id: number }[]).map((a) => a.id), [71, 70, 72])

  const oso = (accountId: number, accountSpec: string, clOrdId: string) => ({ accountSpec, accountId, clOrdId, action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Market', isAutomated: true, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 20950 } })
  const onOther = (await ask('order/placeOSO', oso(71, 'DEMO71', 'a'))).d as { orderId: number }
  const onOwn = (await ask('order/placeOSO', oso(70, 'DEMO70', 'b'))).d as { orderId: number }
  t.ok(onOther.orderId > 0 && onOwn.orderId > 0, 'either account of the login takes orders')
  t.match((await ask('order/placeOSO', oso(72, 'DEMO72', 'c'))).d, { failureReason: 'AccountClosed', failureText: 'account DEMO72 is not active' })
  t.match((await ask('order/placeOSO', oso(80, 'DEMO80', 'd'))).d, { failureReason: 'Unauthorized' }, "another login's account is refused")
  t.match((await ask('order/placeOSO', oso(71, 'DEMO70', 'e'))).d, { failureReason: 'Unauthorized' }, 'id and name must be one account')
  const fillsOf = new Set<number>()
  await next((f) => {
    for (const m of messages(f)) {
      const event = m as { e?: string; d: { entityType: string; entity: { orderId: number } } }
      if (event.e === 'props' && event.d.entityType === 'fill') fillsOf.add(event.d.entity.orderId)
    }
    return fillsOf.has(onOther.orderId) && fillsOf.has(onOwn.orderId)
  })
  t.pass("the fills of both accounts' orders reach the login's socket")
  t.match((await ask('order/item', null, `id=${onOther.orderId}`)).d, { id: onOther.orderId, accountId: 71 }, 'order/item names the account of an order')
  t.match(await ask('order/item', null, 'id=999999'), { s: 404 })
  t.same(((await ask('order/list', null)).d as { accountId: number }[]).map((order) => order.accountId).sort(), [70, 70, 71, 71], 'order/list: every account of the login')
  t.match((await ask('cashBalance/getcashbalancesnapshot', { accountId: 71 })).d, { totalCashValue: 50000 })
  t.match((await ask('cashBalance/getcashbalancesnapshot', { accountId: 80 })).d, { errorText: 'Access is denied' })
})

t.test('accounts of one login must share its password and user id; an account id is configured once', async (t) => {
  await t.rejects(startPaperBroker({ accounts: [account, { ...account, accountId: 71, password: 'other' }] }), /must share its password and userId/)
  await t.rejects(startPaperBroker({ accounts: [account, { ...account, name: 'someone' }] }), /account id 70 is configured twice/)
})

t.test('REST list endpoints as Tradovate documents them: Bearer the access token, the account\'s own positions, orders, fills and cash', async (t) => {
  const other = { name: 'other', password: 'pw-654321', userId: 8, accountId: 80, accountName: 'DEMO80' }
  const broker = await startPaperBroker({ accounts: [account, other] })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')
  const orderId = broker.placeManualOrder('trader', { symbol: 'MNQZ6', action: 'Buy', qty: 2 })
  broker.placeManualOrder('other', { symbol: 'MNQZ6', action: 'Sell', qty: 1 })
  const token = ((await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { accessToken: string }).accessToken
  const auth = { authorization: `Bearer ${token}` }
  const get = async (path: string) => {
    const response = await fetch(`${broker.restUrl}/${path}`, { headers: auth })
    return { status: response.status, body: (await response.json()) as unknown }
  }
  t.match(await get('position/list'), { status: 200, body: [{ accountId: 70, contractId: Number, netPos: 2, netPrice: 21000, bought: 2, sold: 0, tradeDate: { year: Number } }] })
  t.match(await get('order/list'), { status: 200, body: [{ id: orderId, accountId: 70, action: 'Buy', ordStatus: 'Filled' }] })
  const fills = await get('fill/list')
  t.match(fills, { status: 200, body: [{ orderId, action: 'Buy', qty: 2, price: 21000, active: true }] })
  t.equal((fills.body as unknown[]).length, 1, 'only the account\'s own fills')
  const cash = await post(`${broker.restUrl}/cashBalance/getcashbalancesnapshot`, { accountId: 70 }, auth)
  t.same(await cash.json(), { totalCashValue: 50000, realizedPnL: 0, weekRealizedPnL: 0, netLiq: 50000 })
  t.same(await (await post(`${broker.restUrl}/cashBalance/getcashbalancesnapshot`, { accountId: 80 }, auth)).json(), { errorText: 'Access is denied' })
  t.equal((await fetch(`${broker.restUrl}/position/list`)).status, 401, 'no token: refused')
  t.equal((await fetch(`${broker.restUrl}/position/list`, { headers: { authorization: 'Bearer nope' } })).status, 401)
  t.equal((await get('nothing/here')).status, 404)
  broker.interfere('position/list', { kind: 'rate_limit' })
  t.equal((await get('position/list')).status, 429, 'test controls apply to REST requests too')
})

t.test('development controls: a manual order without a tag and the liquidity rule, with 400s that say what was wrong', async (t) => {
  const broker = await startPaperBroker({ accounts: [account] })
  t.teardown(() => broker.close())
  const base = broker.restUrl.replace(/\/v1$/, '')
  t.same(await (await post(`${base}/dev/orders`, { name: 'trader', symbol: 'MNQZ6', action: 'Sell', qty: 1 })).json(), { errorText: 'no market price for MNQZ6 yet; set one with POST /dev/prices' })
  broker.setPrice('MNQZ6', '21000')
  t.same(await (await post(`${base}/dev/liquidity`, { symbol: 'MNQZ6', lots: 1 })).json(), { symbol: 'MNQZ6', lots: 1 })
  const placed = await post(`${base}/dev/orders`, { name: 'trader', symbol: 'MNQZ6', action: 'Sell', qty: 3 })
  t.equal(placed.status, 200)
  t.match(await placed.json(), { orderId: Number })
  t.match(broker.positions(), [{ netPos: -1 }], 'one of three at this price')
  t.match(broker.orders(), [{ clOrdId: null, ordStatus: 'Rejected' }, { clOrdId: null, ordStatus: 'Working', orderQty: 3, filledQty: 1 }])
  t.equal((await post(`${base}/dev/orders`, { name: 'nobody', symbol: 'MNQZ6', action: 'Sell', qty: 1 })).status, 400)
  t.same(await (await post(`${base}/dev/orders`, { name: 'trader', symbol: 'MNQZ6', action: 'Sell', qty: 0 })).json(), { errorText: 'orderQty must be a whole number of at least 1' })
  t.same(await (await post(`${base}/dev/liquidity`, { symbol: 'MNQZ6' })).json(), { errorText: 'lots is required (a whole number of at least 1, or null for no limit)' })
  t.same(await (await post(`${base}/dev/liquidity`, { symbol: 'MNQZ6', lots: null })).json(), { symbol: 'MNQZ6', lots: null })
  t.throws(() => broker.placeManualOrder('trader', { symbol: 'FOO', action: 'Buy', qty: 1 }), { message: 'unknown contract "FOO"' })
})

t.test('market data: a socket authorized with the mdAccessToken subscribes to quotes and gets one on subscribing and on every price change', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], quoteRefreshMs: 0 })
  t.teardown(() => broker.close())
  const token = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { accessToken: string; mdAccessToken: string }
  t.not(token.mdAccessToken, token.accessToken, 'a market-data token of its own')
  const { socket, next } = await open(broker.mdUrl)
  t.teardown(() => socket.close())
  await next((f) => f === 'o')
  const quotes = async () => (messages(await next((f) => f.startsWith('a') && f.includes('"md"')))[0] as { d: { quotes: { contractId: number; timestamp: string; entries: unknown }[] } }).d.quotes
  socket.send(formatRequest('authorize', 1, token.mdAccessToken))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 1, s: 200 }])
  socket.send(formatRequest('user/syncrequest', 2, '{"users":[7]}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 2, s: 404, d: 'Unknown endpoint user/syncrequest' }], 'a market-data socket does not trade')

  socket.send(formatRequest('md/subscribeQuote', 3, '{"symbol":"MNQZ6"}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 3, s: 200 }], 'subscribed before any price: no quote yet')
  broker.setPrice('MNQZ6', '21000.25')
  const [quote] = await quotes()
  t.match(quote, { contractId: 3_003_611, entries: { Bid: { price: 21000.25 }, Offer: { price: 21000.25 }, Trade: { price: 21000.25 } } }, 'MNQZ6 is contract 3,003,611')
  t.ok(Math.abs(Date.parse(quote?.timestamp ?? '') - Date.now()) < 5_000, 'stamped now')
  broker.setPrice('MNQZ6', '21100')
  t.match((await quotes())[0], { entries: { Trade: { price: 21100 } } }, 'every price change is pushed')

  broker.setPrice('ESZ6', '6000')
  socket.send(formatRequest('md/subscribeQuote', 4, '{"symbol":3000611}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 4, s: 200 }], 'a contract id is a symbol too (ESZ6)')
  t.match((await quotes())[0], { contractId: 3_000_611, entries: { Trade: { price: 6000 } } }, 'the current quote follows the answer')
  t.same(broker.quoteSubscriptions(), [['ESZ6', 'MNQZ6']])
  socket.send(formatRequest('md/unsubscribeQuote', 5, '{"symbol":"MNQZ6"}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 5, s: 200 }])
  t.same(broker.quoteSubscriptions(), [['ESZ6']])
  socket.send(formatRequest('md/subscribeQuote', 6, '{"symbol":"NQ1!"}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 6, s: 404, d: 'Contract "NQ1!" not found' }])

  const stoppedAt = new Date(Date.now() - 120_000)
  broker.setPrice('ESZ6', '6001', { quotedAt: stoppedAt })
  t.match((await quotes())[0], { contractId: 3_000_611, timestamp: stoppedAt.toISOString() }, 'a market that stopped quoting keeps its time')

  const trading = await open(broker.wsUrl)
  t.teardown(() => trading.socket.close())
  await trading.next((f) => f === 'o')
  trading.socket.send(formatRequest('authorize', 1, token.accessToken))
  await trading.next((f) => f.startsWith('a'))
  trading.socket.send(formatRequest('md/subscribeQuote', 2, '{"symbol":"MNQZ6"}'))
  t.same(messages(await trading.next((f) => f.startsWith('a'))), [{ i: 2, s: 404, d: 'Unknown endpoint md/subscribeQuote' }], 'the trading socket serves no market data')
})

t.test('an open market goes on quoting every quoteRefreshMs; a stopped one does not', async (t) => {
  const broker = await startPaperBroker({ accounts: [account], quoteRefreshMs: 20 })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')
  broker.setPrice('ESZ6', '6000', { quotedAt: new Date(Date.now() - 60_000) })
  const token = (await (await tokenRequest(broker.restUrl, { name: 'trader', password: 'pw-123456' })).json()) as { mdAccessToken: string }
  const { socket, next } = await open(broker.mdUrl)
  t.teardown(() => socket.close())
  await next((f) => f === 'o')
  socket.send(formatRequest('authorize', 1, token.mdAccessToken))
  await next((f) => f.startsWith('a'))
  socket.send(formatRequest('md/subscribeQuote', 2, '{"symbol":"MNQZ6"}'))
  socket.send(formatRequest('md/subscribeQuote', 3, '{"symbol":"ESZ6"}'))
  const contractsOf = (frame: string) => (messages(frame)[0] as { d: { quotes: { contractId: number }[] } }).d.quotes.map((quote) => quote.contractId)
  const seen: number[][] = []
  for (let i = 0; i < 4; i++) seen.push(contractsOf(await next((f) => f.startsWith('a') && f.includes('"md"'))))
  t.ok(seen.slice(2).every((contracts) => contracts.length === 1 && contracts[0] === 3_003_611), 'the refreshes carry only the open market (MNQZ6)')
})
