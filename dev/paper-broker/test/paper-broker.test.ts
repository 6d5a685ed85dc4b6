import t from 'tap'
import WebSocket from 'ws'
import { formatRequest, parseServerFrame } from '@signals/tradovate-wire'
import { startPaperBroker } from '../src/index.ts'

const account = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }

/** The messages of an `a` frame (responses and events). */
const messages = (frame: string) => {
  const parsed = parseServerFrame(frame)
  return parsed.kind === 'array' ? [...parsed.responses, ...parsed.events] : []
}

/** Opens a socket and collects its frames. */
async function open(url: string) {
  const socket = new WebSocket(url)
  const frames: string[] = []
  socket.on('message', (data) => frames.push(String(data)))
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  const next = async (predicate: (frame: string) => boolean) => {
    const deadline = Date.now() + 5_000
    for (;;) {
      const index = frames.findIndex(predicate)
      if (index >= 0) return frames.splice(index, 1)[0] as string
      if (Date.now() > deadline) throw new Error('no such frame')
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return { socket, next }
}

const tokenRequest = (restUrl: string, body: unknown) =>
  fetch(`${restUrl}/auth/accesstokenrequest`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

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
  socket.send(formatRequest('order/placeorder', 5, '{}'))
  t.same(messages(await next((f) => f.startsWith('a'))), [{ i: 5, s: 404, d: 'Unknown endpoint order/placeorder' }], 'a simulator, not a market')
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

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

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
