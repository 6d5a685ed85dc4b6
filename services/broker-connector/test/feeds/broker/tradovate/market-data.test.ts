import t from 'tap'
import { paperBroker, openSession, until } from './helper.ts'

/** The session's market data over the paper broker's market-data socket (Tradovate's md protocol). */
const subscribes = (broker: Awaited<ReturnType<typeof paperBroker>>) => broker.requests.filter((request) => request.endpoint === 'md/subscribeQuote').length

t.test('the first price subscribes to the contract; later ones answer from the pushed quotes, with no request', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  broker.setPrice('MNQZ6', '21000.25')
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  t.same(broker.quoteSubscriptions(), [], 'no market-data socket before a price is asked for')

  const before = Date.now()
  const buy = await session.marketPrice(contract, 'Buy')
  t.match(buy, { kind: 'price', price: '21000.25', source: 'offer' })
  t.ok(buy.kind === 'price' && buy.at.getTime() >= before - 1_000 && buy.at.getTime() <= Date.now(), "the quote's time")
  t.match(await session.marketPrice(contract, 'Sell'), { kind: 'price', price: '21000.25', source: 'bid' })
  t.same(broker.quoteSubscriptions(), [['MNQZ6']], 'one market-data socket, subscribed to MNQZ6')
  t.same(broker.sessions(), ['trader'], 'the market-data socket is not a trading session')

  broker.setPrice('MNQZ6', '21100')
  await until(async () => (await session.marketPrice(contract, 'Buy')).kind === 'price' && ((await session.marketPrice(contract, 'Buy')) as { price: string }).price === '21100')
  t.equal(subscribes(broker), 1, 'one subscription for every price asked since: the quotes are pushed')
})

t.test('no quote yet: none, saying so, after a short wait; the quote arrives later and is used', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  const { session } = await openSession(t, broker, { firstQuoteWaitMs: 100 })
  const contract = await session.findContract('MESZ6')
  t.same(await session.marketPrice(contract, 'Buy'), { kind: 'none', reason: 'the broker has sent no quote for MESZ6 yet' })
  broker.setPrice('MESZ6', '6000.25')
  await until(async () => (await session.marketPrice(contract, 'Buy')).kind === 'price')
  t.match(await session.marketPrice(contract, 'Sell'), { kind: 'price', price: '6000.25' })
  t.equal(subscribes(broker), 1)
})

t.test('a stopped market keeps the time of its last quote', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  const stoppedAt = new Date(Date.now() - 90_000)
  broker.setPrice('MNQZ6', '21000', { quotedAt: stoppedAt })
  const { session } = await openSession(t, broker)
  const price = await session.marketPrice(await session.findContract('MNQZ6'), 'Buy')
  t.match(price, { kind: 'price', price: '21000' })
  t.equal(price.kind === 'price' ? price.at.toISOString() : null, stoppedAt.toISOString(), 'the quote says how old it is; the entry flow decides it is too old')
})

t.test('each side keeps the time it was last quoted: a quote without an offer leaves the old offer, with its old time', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  const offeredAt = new Date(Date.now() - 300_000)
  broker.setPrice('MNQZ6', '21000', { quotedAt: offeredAt })
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  t.match(await session.marketPrice(contract, 'Buy'), { kind: 'price', price: '21000', source: 'offer' })
  // The bid and the last trade tick on; the offer is not in the quotes any more (Tradovate: any entry may be absent).
  broker.setPrice('MNQZ6', '21000.25', { entries: ['Bid', 'Trade'] })
  await until(async () => {
    const bid = await session.marketPrice(contract, 'Sell')
    return bid.kind === 'price' && bid.price === '21000.25'
  })
  const bid = await session.marketPrice(contract, 'Sell')
  t.ok(bid.kind === 'price' && Date.now() - bid.at.getTime() < 10_000, 'the bid is fresh')
  const offer = await session.marketPrice(contract, 'Buy')
  t.match(offer, { kind: 'price', price: '21000', source: 'offer' }, 'the offer as last quoted')
  t.equal(offer.kind === 'price' ? offer.at.toISOString() : null, offeredAt.toISOString(), 'with the time it was quoted, not the fresh quote\'s')
})

t.test('a lost market-data socket forgets its quotes; the next price opens it again, and the trading session never noticed', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  broker.setPrice('MNQZ6', '21000')
  const { session, lost } = await openSession(t, broker, { firstQuoteWaitMs: 1_000 })
  const contract = await session.findContract('MNQZ6')
  t.match(await session.marketPrice(contract, 'Buy'), { kind: 'price', price: '21000' })
  broker.dropMarketData()
  await until(() => broker.quoteSubscriptions().length === 0)
  broker.setPrice('MNQZ6', '21001')
  await until(async () => {
    const price = await session.marketPrice(contract, 'Buy')
    return price.kind === 'price' && price.price === '21001'
  })
  t.equal(subscribes(broker), 2, 'subscribed again on the new socket')
  t.same(lost, [], 'the trading session is untouched')
  t.equal(await session.cashBalance(), '50000', 'and still answers')
})

t.test('closing the session closes its market data; a price asked after is none', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  await session.marketPrice(contract, 'Buy')
  session.close()
  await until(() => broker.quoteSubscriptions().length === 0)
  t.same(await session.marketPrice(contract, 'Buy'), { kind: 'none', reason: 'the broker session is closed' })
})

t.test('a market-data host that cannot be reached: none with the reason, tried again only after a pause', async (t) => {
  const broker = await paperBroker(t, { quoteRefreshMs: 0 })
  broker.setPrice('MNQZ6', '21000')
  const { session } = await openSession(t, broker, { marketDataReopenMs: 60_000 }, undefined, { mdUrl: 'ws://127.0.0.1:9/v1/websocket' })
  const contract = await session.findContract('MNQZ6')
  const first = await session.marketPrice(contract, 'Buy')
  t.match(first, { kind: 'none', reason: /^market data: broker unreachable: / })
  t.same(await session.marketPrice(contract, 'Buy'), first, 'the same answer without trying again at once')
  t.equal(await session.cashBalance(), '50000', 'trading goes on')
})
