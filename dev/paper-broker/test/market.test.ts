import t from 'tap'
import { PaperMarket, findContract } from '../src/index.ts'

const ACCOUNT = { accountId: 70, userId: 7, accountName: 'DEMO70' }
const market = () => new PaperMarket([ACCOUNT], '50000', () => new Date('2026-11-23T10:00:00Z'))
const oso = (overrides: Record<string, unknown> = {}) => ({
  accountSpec: 'DEMO70',
  accountId: 70,
  clOrdId: 'tag',
  action: 'Buy',
  symbol: 'MNQZ6',
  orderQty: 1,
  orderType: 'Limit',
  price: 21000,
  timeInForce: 'Day',
  isAutomated: true,
  bracket1: { action: 'Sell', clOrdId: 'tag.sl', orderType: 'Stop', stopPrice: 20990 },
  bracket2: { action: 'Sell', clOrdId: 'tag.tp', orderType: 'Limit', price: 21020 },
  ...overrides,
})
const statuses = (m: PaperMarket) => m.taggedOrders().map((order) => `${order.clOrdId ?? '-'}:${order.ordStatus}`)
const fillPrices = (m: PaperMarket) => m.fills().map((fill) => `${fill.action} ${fill.qty}@${fill.price}`)

t.test('prices: a dated contract of a known root, on its tick, above zero', async (t) => {
  const m = market()
  t.equal(m.setPrice('MNQZ6', '21000.25'), null)
  t.equal(m.price('mnqz6'), '21000.25')
  t.equal(m.setPrice('MNQ1!', '1'), 'unknown contract "MNQ1!" (a dated contract such as MNQZ6)')
  t.equal(m.setPrice('MNQZ6', '21000.1'), 'price 21000.1 is not on the MNQZ6 tick (0.25)')
  t.equal(m.setPrice('MNQZ6', '0'), 'price must be above zero')
  t.equal(m.setPrice('MNQZ6', 'abc'), 'price "abc" is not a decimal number')
  t.same(m.prices(), { MNQZ6: '21000.25' })
})

t.test('a resting limit entry fills at its price when a move reaches it; its legs then work, and the target cancels the stop', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21005')
  const placed = m.placeOso(70, oso())
  t.match(placed, { orderId: Number, oso1Id: Number, oso2Id: Number })
  t.same(statuses(m), ['tag:Working', 'tag.sl:Suspended', 'tag.tp:Suspended'])
  m.setPrice('MNQZ6', '21001')
  t.same(m.fills(), [], 'not reached')
  m.setPrice('MNQZ6', '20995')
  t.same(fillPrices(m), ['Buy 1@21000'], 'filled at the limit, not the better price')
  t.same(statuses(m), ['tag:Filled', 'tag.sl:Working', 'tag.tp:Working'])
  m.setPrice('MNQZ6', '21025')
  t.same(fillPrices(m), ['Buy 1@21000', 'Sell 1@21020'])
  t.same(statuses(m), ['tag:Filled', 'tag.sl:Canceled', 'tag.tp:Filled'])
  t.equal(m.balanceText(70), '50040', '20 points x 2 USD')
  t.match(m.positions(), [{ netPos: 0, bought: 1, sold: 1 }])
})

t.test('marketable orders fill at the current price when placed; a gap fills the entry at its level and the already-reached stop at the price', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '20995')
  m.placeOso(70, oso({ clOrdId: 'a' }))
  t.same(fillPrices(m), ['Buy 1@20995'], 'a buy limit above the market fills at the market')
  const gap = market()
  gap.setPrice('MNQZ6', '21005')
  gap.placeOso(70, oso())
  gap.setPrice('MNQZ6', '20980')
  t.same(fillPrices(gap), ['Buy 1@21000', 'Sell 1@20980'], 'the stop was already through when it became active')
  t.equal(gap.balanceText(70), '49960')
})

t.test('stop entries trigger at their level; market entries need a price', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Stop', price: undefined, stopPrice: 21010, bracket2: undefined }))
  m.setPrice('MNQZ6', '21005')
  t.same(m.fills(), [])
  m.setPrice('MNQZ6', '21012.5')
  t.same(fillPrices(m), ['Buy 1@21010'])
  const empty = market()
  t.same(empty.placeOso(70, oso({ orderType: 'Market', price: undefined, symbol: 'ESH7' })), { failureReason: 'NoQuote', failureText: 'no market price for ESH7 yet; set one with POST /dev/prices' })
  t.same(statuses(empty), ['tag:Rejected'], 'the refused order is kept with its tag; its legs were never made')
})

t.test('requests Tradovate would refuse are refused with the reason', async (t) => {
  const m = market()
  const refused = (overrides: Record<string, unknown>) => m.placeOso(70, oso(overrides))
  t.match(refused({ isAutomated: 'yes' }), { failureText: 'isAutomated must be a boolean' })
  t.match(refused({ symbol: 'FOO' }), { failureReason: 'InvalidContract' })
  t.match(refused({ orderQty: 0 }), { failureText: 'orderQty must be a whole number of at least 1' })
  t.match(refused({ orderQty: 1.5 }), { failureText: /whole number/ })
  t.match(refused({ price: undefined }), { failureReason: 'InvalidPrice', failureText: 'the entry is a Limit order without a price' })
  t.match(refused({ price: 21000.1 }), { failureReason: 'InvalidPrice', failureText: /not on the MNQZ6 tick/ })
  t.match(refused({ bracket1: { action: 'Buy', orderType: 'Stop', stopPrice: 20990 } }), { failureText: "bracket1.action must be the opposite of the entry's" })
  t.match(refused({ bracket1: undefined }), { failureText: 'bracket1 is missing' })
  t.match(refused({ orderType: 'MIT' }), { failureReason: 'Unsupported', failureText: 'the entry.orderType MIT is not supported (Market, Limit, Stop, StopLimit, TrailingStop, TrailingStopLimit)' })
  t.match(refused({ orderType: 'TrailingStop' }), { failureReason: 'InvalidPrice', failureText: 'the entry is a TrailingStop order without a pegDifference (its distance from the market)' })
  t.match(refused({ orderType: 'StopLimit', price: undefined, stopPrice: 21010 }), { failureReason: 'InvalidPrice', failureText: 'the entry is a StopLimit order without a price' })
  t.same(m.orders(), [], 'nothing placed')
})

t.test('liquidation cancels the working orders of the contract and flattens at the price', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Market', price: undefined, orderQty: 2 }))
  m.setPrice('MESZ6', '6000')
  m.placeOso(70, oso({ symbol: 'MESZ6', clOrdId: 'other', price: 5990, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 5980 }, bracket2: undefined }))
  m.setPrice('MNQZ6', '20995.5')
  const mnq = m.orders()[0]?.contractId as number
  t.match(m.liquidate(70, mnq), { commandId: Number })
  t.same(statuses(m), ['tag:Filled', 'tag.sl:Canceled', 'tag.tp:Canceled', 'other:Working', '-:Suspended', '-:Filled'], 'the MES orders are untouched')
  t.same(fillPrices(m), ['Buy 2@21000', 'Sell 2@20995.5'])
  t.equal(m.balanceText(70), '49982', '-4.5 points x 2 x 2 USD')
  t.match(m.liquidate(70, 1), { failureReason: 'InvalidContract' })
})

t.test('cancel: a working order and its suspended legs; a filled or unknown order is refused', async (t) => {
  const m = market()
  const placed = m.placeOso(70, oso())
  t.match(m.cancelOrder(70, placed.orderId), { commandId: Number })
  t.same(statuses(m), ['tag:Canceled', 'tag.sl:Canceled', 'tag.tp:Canceled'])
  t.match(m.cancelOrder(70, placed.orderId), { failureReason: 'TooLate' })
  t.match(m.cancelOrder(71, placed.orderId), { failureText: /not found/ }, 'another account cannot cancel it')
  t.match(m.cancelOrder(70, 'x'), { failureText: /not found/ })
})

t.test('pnl is exact for every contract: 6E at 0.00005 ticks, first in first out across lots', async (t) => {
  const m = market()
  m.setPrice('6EZ6', '1.085')
  m.placeOso(70, oso({ symbol: '6EZ6', orderType: 'Market', price: undefined, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 1.08 }, bracket2: { action: 'Sell', orderType: 'Limit', price: 1.08555 } }))
  m.setPrice('6EZ6', '1.0856')
  // 0.00055 x 125000 = 68.75
  t.equal(m.balanceText(70), '50068.75')
  t.match(m.cashBalance(70), { amount: 50068.75, realizedPnL: 68.75, accountId: 70, currencyId: 1, tradeDate: { year: 2026, month: 11, day: 23 } })
  t.match(m.cashSnapshot(70), { totalCashValue: 50068.75 })
  t.match(m.cashSnapshot(71), { errorText: 'account 71 not found' })
})

t.test('every change is an event for the account, in order, drained once', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Market', price: undefined, bracket2: undefined }))
  const events = m.drainEvents()
  t.ok(events.every((event) => event.accountId === 70))
  t.same(
    events.map(({ event }) => `${event.entityType} ${event.eventType}`),
    ['command Created', 'order Created', 'orderVersion Created', 'command Created', 'order Created', 'orderVersion Created', 'order Updated', 'fill Created', 'position Updated', 'order Updated'],
    "each order's New command just before it",
  )
  t.same(m.drainEvents(), [])
  m.setPrice('MNQZ6', '20990')
  t.same(
    m.drainEvents().map(({ event }) => `${event.entityType} ${event.eventType}`),
    ['order Updated', 'fill Created', 'position Updated', 'cashBalance Updated'],
  )
})

t.test('orders carry no tag: it is on the New command that placed them, as at Tradovate', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  const placed = m.placeOso(70, oso({ price: 20990, bracket1: { action: 'Sell', clOrdId: 'tag.sl', orderType: 'Stop', stopPrice: 20980 } }))
  const ids = [placed.orderId, placed.oso1Id, placed.oso2Id] as number[]
  t.ok(m.orders(70).every((order) => !('clOrdId' in order)), 'no clOrdId on an Order entity')
  t.same(
    m.commands(70).map((command) => [command.orderId, command.commandType, command.commandStatus, command.clOrdId, command.isAutomated]),
    [
      [ids[0], 'New', 'RiskPassed', 'tag', true],
      [ids[1], 'New', 'RiskPassed', 'tag.sl', true],
      [ids[2], 'New', 'RiskPassed', 'tag.tp', true],
    ],
  )
  t.same(m.commands(70, [ids[1] as number]).map((command) => command.clOrdId), ['tag.sl'], 'the commands of one order')
  t.same(m.commands(71), [], 'another account sees none')
  m.cancelOrder(70, placed.orderId, true)
  t.same(m.commands(70, [placed.orderId as number]).map((command) => [command.commandType, command.clOrdId]), [['New', 'tag'], ['Cancel', null]], 'a cancel is a command on the order too')
  const mnq = m.orders()[0]?.contractId as number
  m.placeOso(70, oso({ orderType: 'Market', price: undefined, clOrdId: undefined, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 20990 }, bracket2: undefined }))
  m.liquidate(70, mnq)
  t.same(m.taggedOrders(70).slice(-3).map((order) => [order.clOrdId, order.ordStatus]), [[null, 'Filled'], [null, 'Canceled'], [null, 'Filled']], 'untagged orders and the liquidation have a command without a clOrdId')
  t.equal(m.commands(70).filter((command) => command.commandType === 'New').length, 6)
})

t.test('liquidity rule: each order fills its lots per price event; the legs follow the entry; OCO waits for a leg done in full', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21005')
  t.equal(m.setLiquidity('MNQZ6', 2), null)
  m.placeOso(70, oso({ orderQty: 5 }))
  m.setPrice('MNQZ6', '21000')
  t.same(fillPrices(m), ['Buy 2@21000'], 'two of the five at the limit')
  const qty = () => m.taggedOrders(70).map((order) => `${order.clOrdId}:${order.ordStatus}:${order.filledQty}/${order.orderQty}`)
  t.same(qty(), ['tag:Working:2/5', 'tag.sl:Working:0/2', 'tag.tp:Working:0/2'], 'the legs work for what has filled')
  m.setPrice('MNQZ6', '20999.75')
  m.setPrice('MNQZ6', '20999.5')
  t.same(qty(), ['tag:Filled:5/5', 'tag.sl:Working:0/5', 'tag.tp:Working:0/5'], 'two more, then the last one; the legs grew with each')
  m.setPrice('MNQZ6', '21020')
  t.same(qty(), ['tag:Filled:5/5', 'tag.sl:Working:0/5', 'tag.tp:Working:2/5'], 'the target fills two: the stop still works for five')
  t.match(m.positions(), [{ netPos: 3 }])
  t.equal(m.setLiquidity('MNQZ6', null), null)
  m.setPrice('MNQZ6', '21021')
  t.same(qty(), ['tag:Filled:5/5', 'tag.sl:Canceled:0/5', 'tag.tp:Filled:5/5'], 'the rest of the target: done in full, it cancels the stop')
  t.match(m.positions(), [{ netPos: 0 }])
  t.equal(m.setLiquidity('MNQZ6', 0), 'lots must be a whole number of at least 1')
  t.equal(m.setLiquidity('NQ1!', 1), 'unknown contract "NQ1!" (a dated contract such as MNQZ6)')
})

t.test('a liquidation under the liquidity rule flattens in parts, the rest at the next price', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Market', price: undefined, orderQty: 5 }))
  m.setLiquidity('MNQZ6', 3)
  m.setPrice('MNQZ6', '21010')
  m.liquidate(70, m.orders()[0]?.contractId)
  t.same(fillPrices(m).slice(1), ['Sell 3@21010'])
  t.match(m.positions(), [{ netPos: 2 }])
  m.setPrice('MNQZ6', '21012')
  t.same(fillPrices(m).slice(1), ['Sell 3@21010', 'Sell 2@21012'])
  t.match(m.positions(), [{ netPos: 0 }])
  t.equal(m.balanceText(70), '50108', '(10 x 3 + 12 x 2) x 2 USD')
})

t.test('order/modifyorder: a live order\'s whole quantity and price change; a new version and a Modify command are sent', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  const placed = m.placeOso(70, oso({ orderType: 'Market', price: undefined, orderQty: 5 }))
  m.drainEvents()
  const stop = placed.oso1Id as number
  t.match(m.modifyOrder(70, { orderId: stop, orderQty: 3, orderType: 'Stop', stopPrice: 20992.5, isAutomated: true }), { commandId: Number })
  t.same(m.drainEvents().map(({ event }) => `${event.entityType} ${event.eventType}`), ['command Created', 'orderVersion Created'])
  t.match(m.orderVersions(70).find((version) => version.orderId === stop), { orderQty: 3, stopPrice: 20992.5 })
  t.same(m.commands(70, [stop]).map((command) => command.commandType), ['New', 'Modify'])
  const refused = (body: Record<string, unknown>) => m.modifyOrder(70, { orderId: placed.oso2Id, orderQty: 2, orderType: 'Limit', ...body })
  t.match(refused({ orderType: 'Stop' }), { failureReason: 'Unsupported' })
  t.match(refused({ price: 21020.1 }), { failureReason: 'InvalidPrice' })
  t.match(refused({ orderQty: 0 }), { failureText: 'orderQty must be a whole number of at least 1' })
  t.match(m.modifyOrder(71, { orderId: placed.oso2Id, orderQty: 2, orderType: 'Limit' }), { failureText: /not found/ })
  m.setPrice('MNQZ6', '20992.5')
  t.same(fillPrices(m), ['Buy 5@21000', 'Sell 3@20992.5'], 'the stop fills at its new level for its new quantity')
  t.match(m.positions(), [{ netPos: 2 }])
  t.match(m.modifyOrder(70, { orderId: stop, orderQty: 2, orderType: 'Stop' }), { failureReason: 'TooLate' })
})

t.test('order/placeorder: one order; a manual market order has no tag and fills at the price', async (t) => {
  const m = market()
  t.match(m.placeOrder(70, { accountSpec: 'DEMO70', accountId: 70, action: 'Sell', symbol: 'MNQZ6', orderQty: 1, orderType: 'Market', isAutomated: false }), { failureReason: 'NoQuote' })
  m.setPrice('MNQZ6', '21000')
  const placed = m.placeOrder(70, { accountSpec: 'DEMO70', accountId: 70, action: 'Sell', symbol: 'MNQZ6', orderQty: 1, orderType: 'Market', isAutomated: false })
  t.match(placed, { orderId: Number })
  t.same(fillPrices(m), ['Sell 1@21000'])
  t.match(m.taggedOrders(70).at(-1), { id: placed.orderId, clOrdId: null, ordStatus: 'Filled' })
  t.match(m.placeOrder(70, { accountSpec: 'DEMO70', accountId: 70, action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Limit', isAutomated: true }), { failureReason: 'InvalidPrice' })
})

t.test("the cash balance's realizedPnL is the trading day's (CME: from 17:00 Chicago), as Tradovate's tradeDate", async (t) => {
  let now = new Date('2026-11-23T21:00:00Z') // 15:00 Chicago: trading day of the 23rd
  const m = new PaperMarket([ACCOUNT], '50000', () => now)
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Market', price: undefined, bracket2: undefined }))
  m.setPrice('MNQZ6', '20990') // the stop: -$20
  t.match(m.cashBalance(70), { amount: 49980, realizedPnL: -20, tradeDate: { year: 2026, month: 11, day: 23 } })
  now = new Date('2026-11-23T23:30:00Z') // 17:30 Chicago: the next trading day, though the same UTC date
  t.match(m.cashBalance(70), { amount: 49980, realizedPnL: 0, tradeDate: { year: 2026, month: 11, day: 24 } }, 'the balance stays; the day figure starts again')
  t.match(m.cashSnapshot(70), { totalCashValue: 49980, realizedPnL: 0 })
})

t.test('a quote carries the entries set: a side left out is absent (Tradovate: any entry may be absent)', async (t) => {
  const m = market()
  const contract = findContract('MNQZ6')!
  m.setPrice('MNQZ6', '21000')
  t.same(Object.keys(m.quote(contract)?.entries ?? {}), ['Bid', 'Offer', 'Trade'])
  m.setPrice('MNQZ6', '21000.25', undefined, ['Bid', 'Trade'])
  t.same(m.quote(contract)?.entries, { Bid: { price: 21000.25 }, Trade: { price: 21000.25 } })
})

t.test('a stop-limit entry with its bracket: triggered, it rests as a limit; its fill arms the legs', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'StopLimit', stopPrice: 21010, price: 21011 }))
  m.setPrice('MNQZ6', '21014')
  t.same(statuses(m), ['tag:Working', 'tag.sl:Suspended', 'tag.tp:Suspended'], 'stop reached, limit not')
  m.setPrice('MNQZ6', '21005')
  t.same(fillPrices(m), ['Buy 1@21011'], 'a move back under the limit fills it at the limit')
  t.same(statuses(m), ['tag:Filled', 'tag.sl:Working', 'tag.tp:Working'])
})

t.test('trailing stops: placed before any price they start at the first one; a given stop nearer than the distance stays', async (t) => {
  const m = market()
  const early = m.placeOrder(70, { ...oso({ clOrdId: 'early', action: 'Sell', orderType: 'TrailingStop', pegDifference: 8 }), bracket1: undefined, bracket2: undefined })
  t.match(early, { orderId: Number })
  t.same(m.orderVersions().map((version) => version.stopPrice), [undefined], 'no market yet: no stop')
  m.setPrice('MNQZ6', '21000')
  t.same(m.orderVersions().map((version) => version.stopPrice), [20992])
  m.placeOrder(70, { ...oso({ clOrdId: 'near', action: 'Sell', orderType: 'TrailingStop', stopPrice: 20995, pegDifference: 8 }), bracket1: undefined, bracket2: undefined })
  t.same(m.orderVersions().map((version) => version.stopPrice), [20992, 20995], 'nearer than 8 points: it stays until the market carries it further')
  m.setPrice('MNQZ6', '21004')
  t.same(m.orderVersions().map((version) => version.stopPrice), [20996, 20996])
  m.setPrice('MNQZ6', '20996')
  t.same(fillPrices(m), ['Sell 1@20996', 'Sell 1@20996'])
})

t.test('a split fill overrides the liquidity rule for that fill only', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21005')
  m.setLiquidity('MNQZ6', 1)
  const placed = m.placeOrder(70, { ...oso({ orderQty: 4 }), bracket1: undefined, bracket2: undefined })
  t.equal(m.splitNextFill(70, placed.orderId as number, 3), null)
  t.equal(m.splitNextFill(71, placed.orderId as number, 3), `order ${String(placed.orderId)} not found`, "another account's order is not found")
  m.setPrice('MNQZ6', '21000')
  t.same(fillPrices(m), ['Buy 3@21000', 'Buy 1@21000'], 'parts of 3 in one event, beyond the liquidity of 1')
  t.match(m.positions(), [{ netPos: 4 }])
})

t.test('a commission per contract: each fill has its FillFee, and the cash pays it (the realized pnl does not)', async (t) => {
  const m = market()
  m.chargeCommission('0.52')
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Market', price: undefined, orderQty: 3 }))
  m.setPrice('MNQZ6', '21020')
  const fills = m.fills()
  t.equal(fills.length, 2, 'the entry and the target')
  t.same(m.fillFees(fills.map((fill) => fill.id)), fills.map((fill) => ({ id: fill.id, commission: 1.56, commissionCurrencyId: 1 })), '3 × $0.52 each')
  t.same(m.fillFees([99_999]), [], 'no fee for a fill the market never made')
  // 3 × 20 points × $2 = $120 realized; the cash is $120 up less two fills' commissions.
  t.match(m.cashBalance(70), { amount: 50116.88, realizedPnL: 120 })
})

t.test('no commission unless asked: every fill has a FillFee of 0 and the cash is untouched by it', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.placeOso(70, oso({ orderType: 'Market', price: undefined }))
  t.same(m.fillFees(m.fills().map((fill) => fill.id)), m.fills().map((fill) => ({ id: fill.id, commission: 0, commissionCurrencyId: 1 })))
  t.match(m.cashBalance(70), { amount: 50000 })
})

const oco = (overrides: Record<string, unknown> = {}) => ({
  accountSpec: 'DEMO70',
  accountId: 70,
  clOrdId: 'sig-1.tp1',
  action: 'Sell',
  symbol: 'MNQZ6',
  orderQty: 2,
  orderType: 'Limit',
  price: 21020,
  timeInForce: 'GTC',
  isAutomated: true,
  other: { action: 'Sell', clOrdId: 'sig-1.sl1', orderType: 'Stop', stopPrice: 20990, timeInForce: 'GTC' },
  ...overrides,
})

t.test('order/placeOCO: two working orders linked; the one done in full cancels the other, either way', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  const placed = m.placeOco(70, oco())
  t.match(placed, { orderId: Number, ocoId: Number })
  t.same(statuses(m), ['sig-1.tp1:Working', 'sig-1.sl1:Working'])
  m.setPrice('MNQZ6', '21025')
  t.same(fillPrices(m), ['Sell 2@21020'])
  t.same(statuses(m), ['sig-1.tp1:Filled', 'sig-1.sl1:Canceled'], 'the target done cancels its stop')
  const stopFirst = market()
  stopFirst.setPrice('MNQZ6', '21000')
  stopFirst.placeOco(70, oco())
  stopFirst.setPrice('MNQZ6', '20985')
  t.same(fillPrices(stopFirst), ['Sell 2@20990'])
  t.same(statuses(stopFirst), ['sig-1.tp1:Canceled', 'sig-1.sl1:Filled'], 'the stop done cancels its target')
})

t.test('order/placeOCO: a part of one leg resizes nothing; the client resizes the other, and the rest still cancels it', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  m.setLiquidity('MNQZ6', 1)
  const placed = m.placeOco(70, oco()) as { orderId: number; ocoId: number }
  m.setPrice('MNQZ6', '21025')
  t.same(fillPrices(m), ['Sell 1@21020'])
  t.same(statuses(m), ['sig-1.tp1:Working', 'sig-1.sl1:Working'], 'a part cancels nothing')
  const qty = () => m.taggedOrders(70).map((order) => `${order.clOrdId}:${order.ordStatus}:${order.filledQty}/${order.orderQty}`)
  t.same(qty(), ['sig-1.tp1:Working:1/2', 'sig-1.sl1:Working:0/2'], 'nor resizes the stop')
  t.match(m.modifyOrder(70, { orderId: placed.ocoId, orderQty: 1, orderType: 'Stop', stopPrice: 20990, isAutomated: true }), { commandId: Number }, 'the client resizes it')
  m.setPrice('MNQZ6', '21030')
  t.same(qty(), ['sig-1.tp1:Filled:2/2', 'sig-1.sl1:Canceled:0/1'])
  t.match(m.positions(), [{ netPos: -2 }], 'two sold (no entry in this test), never more')
})

t.test('order/placeOCO: refused whole as Tradovate would (other on the wrong side, a Market leg, no other)', async (t) => {
  const m = market()
  m.setPrice('MNQZ6', '21000')
  t.match(m.placeOco(70, oco({ other: { action: 'Buy', orderType: 'Stop', stopPrice: 20990 } })), { failureReason: 'UnknownReason' })
  t.match(m.placeOco(70, oco({ other: { action: 'Sell', orderType: 'Market' } })), { failureReason: 'Unsupported' })
  t.match(m.placeOco(70, oco({ other: undefined })), { failureReason: String })
  t.same(statuses(m), [], 'nothing placed')
})
