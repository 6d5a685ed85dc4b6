import t from 'tap'
import { BrokerError, type BrokerEvent } from '../../../../src/feeds/broker/broker-adapter.ts'
import { contractIdOf, contractNumberOf } from '../../../../src/feeds/broker/projectx/contract-ids.ts'
import { ACCOUNTS, eventually, loginOf, openSession, projectXBroker } from './helper.ts'

// The ProjectX adapter against the ProjectX paper broker (its REST and SignalR user hub, through the
// official client): login, the saved account, contracts, an entry with its ProjectX bracket, the events.

const orderEvents = (events: BrokerEvent[]) => events.flatMap((event) => (event.type === 'order' ? [event.order] : []))
const refusalOf = async (promise: Promise<unknown>): Promise<BrokerError> => {
  try {
    await promise
  } catch (error) {
    if (error instanceof BrokerError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

t.test('contract ids read back from their numbers', async (t) => {
  for (const id of ['CON.F.US.ENQ.Z25', 'CON.F.US.MNQ.H27', 'CON.F.US.MCLE.F26', 'CON.F.US.EU6.U30']) t.equal(contractIdOf(contractNumberOf(id)), id, id)
  t.not(contractNumberOf('CON.F.US.EP.Z25'), contractNumberOf('CON.F.US.ENQ.Z25'))
  t.match((await refusalOf(Promise.resolve().then(() => contractNumberOf('CON.O.US.AAPL')))).message, /not a US futures contract id/)
})

t.test('a login with its API key opens a session on the saved account; a wrong key or account is refused', async (t) => {
  const broker = await projectXBroker(t)
  const { session } = await openSession(t, broker, loginOf('trader0', ' PAPERX7000 '))
  t.same(session.snapshot.account, { id: 7000, name: 'PAPERX7000' })
  t.equal(session.snapshot.cashBalance, '50000')
  t.same(session.snapshot.positions, [])
  const byId = await openSession(t, broker, loginOf('trader0', '7000'))
  t.equal(byId.session.snapshot.account.id, 7000, 'the account by its id')

  const wrongKey = await refusalOf(openSession(t, broker, loginOf('trader0', 'PAPERX7000', 'not-the-key')))
  t.equal(wrongKey.kind, 'credentials_refused')
  t.match(wrongKey.message, /Invalid user name or API key/)
  const otherAccount = await refusalOf(openSession(t, broker, loginOf('trader0', 'PAPERX7001')))
  t.equal(otherAccount.kind, 'account_not_found')
  t.match(otherAccount.message, /has no account "PAPERX7001" \(it has: PAPERX7000\)/)
})

t.test('an entry goes out with its stop and target as a ProjectX bracket; its legs come tagged before its fill', async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  t.equal(contractIdOf(contract.id), 'CON.F.US.MNQ.Z26')
  t.equal(contract.name, 'MNQZ6')
  const price = await session.marketPrice(contract, 'Buy')
  t.match(price, { kind: 'price', price: '21000', source: 'offer' }, 'the market hub quotes it')

  const placed = await session.placeBracket({ tag: 'sig-41', contract, action: 'Buy', quantity: 2, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100.25' })
  t.same([placed.stopOrderId, placed.targetOrderId], [null, null], 'ProjectX places the legs on the fill')
  await eventually(() => events.some((event) => event.type === 'fill'))
  const fillAt = events.findIndex((event) => event.type === 'fill')
  const legs = orderEvents(events.slice(0, fillAt)).filter((order) => order.parentId === placed.entryOrderId)
  t.same(legs.map((order) => [order.tag, order.action, order.status]).sort(), [['sig-41.sl', 'Sell', 'Working'], ['sig-41.tp', 'Sell', 'Working']], 'both legs, tagged after the entry, before its fill')
  t.match(events[fillAt], { type: 'fill', fill: { orderId: placed.entryOrderId, contractId: contract.id, action: 'Buy', quantity: 2, price: '21000' } })
  t.ok(orderEvents(events).some((order) => order.id === placed.entryOrderId && order.tag === 'sig-41' && order.status === 'Filled'))
  await eventually(() => events.some((event) => event.type === 'position' && event.position.netPos === 2))

  const versions = await session.orderVersions(legs.map((leg) => leg.id))
  t.same([...versions.values()].map((version) => [version.orderType, version.quantity, version.price ?? version.stopPrice]).sort(), [['Limit', 2, '21100.25'], ['Stop', 2, '20950']], 'the legs at the prices asked')
  t.same((await session.listPositions()).map((position) => [position.contractId, position.netPos, position.netPrice]), [[contract.id, 2, '21000']])
  t.same((await session.listOrders()).filter((order) => order.status === 'Working').map((order) => order.tag).sort(), ['sig-41.sl', 'sig-41.tp'])

  const stop = legs.find((leg) => leg.tag === 'sig-41.sl')!
  await session.repriceOrder!(stop.id, { stopPrice: '20960' })
  t.equal((await session.orderVersions([stop.id])).get(stop.id)?.stopPrice, '20960', 'modify moves the stop')
  await session.liquidatePosition(contract.id)
  await eventually(() => events.some((event) => event.type === 'position' && event.position.netPos === 0))
  t.same(await session.listPositions(), [], 'flat')
  t.same((await session.listOrders()).filter((order) => order.status === 'Working'), [], 'no leg left working')
  const fills = await session.listFills()
  t.equal(fills.length, 2, 'the entry fill and the flatten fill')
  const fees = await session.fillFees(fills.map((fill) => fill.id))
  t.same([...fees.keys()].sort(), fills.map((fill) => fill.id).sort(), "each fill's fees, from the trade ProjectX lists")
  t.ok([...fees.values()].every((fee) => /^\d+(\.\d+)?$/.test(fee)), 'as decimal text')
  t.same(await session.fillFees([]), new Map(), 'none asked, none read')
})

t.test('what the broker refuses comes back with its reason; an off-side stop is refused before it is sent', async (t) => {
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  const entry = { tag: 'sig-7', contract, action: 'Buy' as const, quantity: 1, entryType: 'Limit' as const, entryPrice: '20990', stopPrice: '20950', targetPrice: '21100' }
  await session.placeBracket(entry)
  const refused = await refusalOf(session.placeBracket(entry))
  t.equal(refused.kind, 'rejected')
  t.match(refused.message, /customTag "sig-7" is already used/)
  const offSide = await refusalOf(session.placeBracket({ ...entry, tag: 'sig-8', stopPrice: '21000' }))
  t.match(offSide.message, /the stop 21000 must be below the entry price 20990/)
  t.equal(broker.requests.filter((request) => request.endpoint === 'Order/place').length, 2, 'the off-side stop never reached the broker')
  const unknown = await refusalOf(session.findContract('XYZZ6'))
  t.match(unknown.message, /does not list the contract XYZZ6/)
})

t.test('an account that refuses brackets (Position Brackets) gets a market entry without them, and the stop and target from us on its fill; a resting entry is refused', async (t) => {
  const broker = await projectXBroker(t, { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' }] })
  broker.setPrice('MNQZ6', '21000')
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  // An adapter without a database keeps the legs' plans in memory: a resting entry's could meet a fill after a
  // restart, so it is refused, with why (the connector's adapter keeps them in Postgres: own-legs-restart.test.ts).
  const resting = { tag: 'sig-6', contract, action: 'Buy' as const, quantity: 2, entryType: 'Limit' as const, entryPrice: '20990', stopPrice: '20950', targetPrice: '21100' }
  t.match((await refusalOf(session.placeBracket(resting))).message, /only market entries are taken/)
  t.same(broker.orders().map((order) => [order.clOrdId, order.ordStatus]), [['sig-6', 'Rejected']], 'only the bracketed try, which the account refused')
  const entry = { tag: 'sig-7', contract, action: 'Buy' as const, quantity: 2, entryType: 'Market' as const, entryPrice: null, stopPrice: '20950', targetPrice: '21100' }
  const offSide = await refusalOf(session.placeBracket({ ...entry, tag: 'sig-8', stopPrice: '21010' }))
  t.match(offSide.message, /the stop 21010 must be below/, 'levels are checked as for a bracket')
  const placed = await session.placeBracket(entry)
  t.same(broker.orders().filter((order) => order.clOrdId === 'sig-7' || order.clOrdId === 'sig-7.own').map((order) => [order.clOrdId, order.ordStatus]), [['sig-7', 'Filled']], 'known to refuse: sent without brackets at once, under its own tag')
  t.equal((await session.listOrders()).filter((order) => order.tag === 'sig-7').map((order) => order.id).join(), String(placed.entryOrderId), 'the tag finds the entry')
  await eventually(() => events.some((event) => event.type === 'fill'))
  const fill = events.findIndex((event) => event.type === 'fill')
  const legs = events.slice(0, fill).flatMap((event) => (event.type === 'order' && event.order.parentId === placed.entryOrderId ? [event.order.tag] : []))
  t.same([...new Set(legs)].sort(), ['sig-7.sl', 'sig-7.tp'], 'our legs, tagged after the entry, told before its fill')
  const working = broker.orders().filter((order) => order.ordStatus === 'Working')
  const versions = await session.orderVersions(working.map((order) => order.id))
  t.same([...versions.values()].map((leg) => [leg.orderType, leg.price ?? leg.stopPrice, leg.quantity]).sort(), [['Limit', '21100', 2], ['Stop', '20950', 2]], 'at the levels asked, sized to the fill')
  t.equal(broker.requests.filter((request) => request.endpoint === 'Order/place').length, 4, 'the refused resting try, the entry, each leg once')
})

t.test('our legs on an entry filled in parts: placed at its first fill, grown with each next one, never more than is held', async (t) => {
  const broker = await projectXBroker(t, { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' }] })
  broker.setPrice('MNQZ6', '21000')
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  // Learn the account's setting with a first market entry of one contract, closed again by its stop's level below.
  const first = { tag: 'sig-8', contract, action: 'Sell' as const, quantity: 1, entryType: 'Market' as const, entryPrice: null, stopPrice: '21050', targetPrice: '20900' }
  await session.placeBracket(first)
  await eventually(() => events.filter((event) => event.type === 'fill').length === 1)
  // The market then fills each order one contract per price move (the paper broker's liquidity rule).
  const liquidity = await fetch(`${broker.apiUrl}/dev/liquidity`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: 'MNQZ6', lots: 1 }) })
  t.equal(liquidity.status, 200)
  const entry = { tag: 'sig-9', contract, action: 'Sell' as const, quantity: 3, entryType: 'Market' as const, entryPrice: null, stopPrice: '21050', targetPrice: '20900' }
  await session.placeBracket(entry)
  broker.setPrice('MNQZ6', '21000.25')
  broker.setPrice('MNQZ6', '21000')
  await eventually(() => events.filter((event) => event.type === 'fill').length === 4)
  const legsOf = () => broker.orders().filter((order) => order.clOrdId === 'sig-9.sl' || order.clOrdId === 'sig-9.tp')
  await eventually(() => legsOf().every((leg) => leg.orderQty === 3))
  t.equal(legsOf().length, 2, 'one stop and one target, each placed once')
  t.same(legsOf().map((leg) => [leg.clOrdId, leg.action, leg.ordStatus, leg.orderQty]).sort(), [['sig-9.sl', 'Buy', 'Working', 3], ['sig-9.tp', 'Buy', 'Working', 3]], 'grown to the three held')
  t.equal(broker.positions().find((position) => position.accountId === 7000)?.netPos, -4, 'the first entry and these three')
})

t.test('a hub connection cut ends the session (the next starts from a snapshot)', async (t) => {
  const broker = await projectXBroker(t)
  const { lost } = await openSession(t, broker)
  broker.dropConnections()
  await eventually(() => lost.length === 1)
  t.match(lost[0], /ProjectX hub connection ended/)
})

t.test('a market entry filled away from the quote keeps its stop and target at the prices asked', async (t) => {
  // ProjectX counts the legs' ticks from the fill; the ticks were counted from the quote. The market moves
  // while the order is on its way, so the legs land off by the move until the adapter moves them back.
  const broker = await projectXBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { session, events } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  t.match(await session.marketPrice(contract, 'Buy'), { kind: 'price', price: '21000' })
  broker.interfere('Order/place', { kind: 'late' })
  const placing = session.placeBracket({ tag: 'sig-51', contract, action: 'Buy', quantity: 1, entryType: 'Market', entryPrice: null, stopPrice: '20950', targetPrice: '21100' })
  await eventually(() => broker.requests.some((request) => request.endpoint === 'Order/place'))
  broker.setPrice('MNQZ6', '21010')
  t.equal(broker.release('Order/place'), 1)
  const placed = await placing
  await eventually(() => events.some((event) => event.type === 'fill' && event.fill.orderId === placed.entryOrderId && event.fill.price === '21010'))
  const legPrices = async () => {
    const legs = (await session.listOrders()).filter((order) => order.parentId === placed.entryOrderId && order.status === 'Working')
    const versions = await session.orderVersions(legs.map((leg) => leg.id))
    return [...versions.values()].map((version) => version.price ?? version.stopPrice).sort()
  }
  // Both legs are moved (one Order/modify each) once they show; then their prices are read once.
  await eventually(() => broker.requests.filter((request) => request.endpoint === 'Order/modify').length >= 2, 15_000).catch(() => undefined)
  t.same(await legPrices(), ['20950', '21100'], 'the stop and target where the alert put them, not 10 points higher')
})

t.test('the token is validated before it expires, so the session outlives its first token', async (t) => {
  const broker = await projectXBroker(t, { tokenTtlMs: 2_000 })
  const { session, lost } = await openSession(t, broker, loginOf(), { renewBeforeMs: 1_000 })
  await eventually(() => broker.requests.filter((request) => request.endpoint === 'Auth/validate').length >= 2, 15_000)
  // Past the first token's life: a request with it would be HTTP 401 (credentials_refused).
  t.equal((await session.findContract('MNQZ6')).name, 'MNQZ6', 'requests go on with the new token')
  t.same(lost, [], 'the session was not lost')
})

t.test("ProjectX's rate limit is kept on our side, and a 429 is waited out", async (t) => {
  // Our window as the broker's: requests wait for a slot, none is answered 429. The broker counts a request
  // when it arrives: on a loaded machine the first eight arrived late by more than the tenth of a window we
  // leave, and it refused later ones. Its window here is shorter than ours (the same 8 requests, in 600 ms
  // instead of 1 s), so 500 ms of lateness more is taken; twelve at once without our window would still draw 429s.
  const rateLimit = { limit: 8, windowMs: 1_000 }
  const broker = await projectXBroker(t, { rateLimit: { limit: 8, windowMs: 600 } })
  const { session } = await openSession(t, broker, loginOf(), { rateLimit })
  // Twelve searches for contracts ProjectX does not list (a refusal is not kept, so each is a request).
  const refusals = await Promise.all(Array.from({ length: 12 }, (_, i) => refusalOf(session.findContract(`XY${i}Z6`))))
  t.same(new Set(refusals.map((refusal) => refusal.kind)), new Set(['rejected']), 'every request answered')
  broker.interfere('Contract/search', { kind: 'rate_limit' })
  t.equal((await session.findContract('MNQZ6')).name, 'MNQZ6', 'a 429 (not carried out) is waited out and sent again')
  t.equal(broker.requests.filter((request) => request.endpoint === 'Contract/search').length, 12 + 2, 'the twelve, the 429 and its resend')
})
