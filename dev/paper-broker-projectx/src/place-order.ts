import { compareDecimal, normalizeDecimal, type PaperContract, type PaperMarket } from '@signals/dev-paper-broker/engine'
import { absolute, add, multiply, parseDecimal, subtract, toPlain } from '@signals/instruments'
import type { ProjectXPaperAccount } from './accounts.ts'
import type { ProjectXBook } from './book.ts'
import { contractOfId } from './contracts.ts'
import { OrderType, PlaceOrderError, ok, refused, type Outcome } from './wire.ts'

export interface OrderDesk {
  market: PaperMarket
  book: ProjectXBook
  now: () => Date
}

type Fields = Record<string, unknown>
type EngineOrder = { orderType: string; price?: number; stopPrice?: number; pegDifference?: number }
type Refusal = { refusal: Outcome }

const reject = (message: string): Refusal => ({ refusal: refused(PlaceOrderError.OrderRejected, message) })
const isWhole = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min
const priceOf = (value: unknown): string | null => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? normalizeDecimal(value) : null)
/** `price` moved by `ticks` ticks (signed), exactly. */
const offset = (price: string, ticks: number, tick: string): string => normalizeDecimal(toPlain(add(parseDecimal(price), multiply(parseDecimal(ticks), parseDecimal(tick)))))

/**
 * The engine order of a ProjectX type and its prices: Limit `limitPrice`, Stop `stopPrice`, StopLimit both;
 * TrailingStop `trailDistance` (ticks) or `trailPrice` (the level its stop starts at: its distance is that
 * from the market); JoinBid / JoinAsk a limit at the market (one price is bid and ask in the paper market).
 */
function engineOrder(body: Fields, buy: boolean, contract: PaperContract, market: string | null): EngineOrder | Refusal {
  const limit = priceOf(body.limitPrice)
  const stop = priceOf(body.stopPrice)
  switch (body.type) {
    case OrderType.Market:
      return { orderType: 'Market' }
    case OrderType.Limit:
      return limit ? { orderType: 'Limit', price: Number(limit) } : reject('a Limit order (type 1) needs limitPrice')
    case OrderType.Stop:
      return stop ? { orderType: 'Stop', stopPrice: Number(stop) } : reject('a Stop order (type 4) needs stopPrice')
    case OrderType.StopLimit:
      return limit && stop ? { orderType: 'StopLimit', price: Number(limit), stopPrice: Number(stop) } : reject('a StopLimit order (type 3) needs limitPrice and stopPrice')
    case OrderType.JoinBid:
    case OrderType.JoinAsk:
      return market ? { orderType: 'Limit', price: Number(market) } : reject(`no market price for ${contract.name} to join; set one with POST /dev/prices`)
    case OrderType.TrailingStop:
      return trailing(body, buy, contract, market)
    default:
      return reject('type must be 1 (Limit), 2 (Market), 3 (StopLimit), 4 (Stop), 5 (TrailingStop), 6 (JoinBid) or 7 (JoinAsk)')
  }
}

function trailing(body: Fields, buy: boolean, contract: PaperContract, market: string | null): EngineOrder | Refusal {
  const level = priceOf(body.trailPrice)
  if (!isWhole(body.trailDistance, 1) && !level) return reject('a TrailingStop order (type 5) needs trailDistance (ticks) or trailPrice (the level its stop starts at)')
  if (!market) return reject(`no market price for ${contract.name} to trail from; set one with POST /dev/prices`)
  if (isWhole(body.trailDistance, 1)) {
    // The stop starts that far from the market, so the order's first event already carries it.
    const ticks = buy ? body.trailDistance : -body.trailDistance
    return { orderType: 'TrailingStop', stopPrice: Number(offset(market, ticks, contract.spec.tickSize)), pegDifference: Number(offset('0', body.trailDistance, contract.spec.tickSize)) }
  }
  if (!level) return reject('trailPrice must be a price above zero')
  const distance = normalizeDecimal(toPlain(subtract(parseDecimal(market), parseDecimal(level))))
  if (buy ? compareDecimal(distance, '0') >= 0 : compareDecimal(distance, '0') <= 0) return reject(`trailPrice ${level} must be ${buy ? 'above' : 'below'} the market (${market})`)
  return { orderType: 'TrailingStop', stopPrice: Number(level), pegDifference: Number(toPlain(absolute(parseDecimal(distance)))) }
}

/** The price the bracket's ticks count from: the entry's limit or stop, or the market for a market entry. */
const referenceOf = (entry: EngineOrder, market: string | null): string | null => (entry.orderType === 'Limit' || entry.orderType === 'StopLimit' ? normalizeDecimal(entry.price as number) : entry.orderType === 'Stop' ? normalizeDecimal(entry.stopPrice as number) : market)

/**
 * A bracket's legs. Ticks are signed from the entry's price: a buy's stop below it (negative), its target
 * above (positive), a sell's the other way; the stop a Stop (4) or TrailingStop (5), the target a Limit (1).
 */
function bracketLegs(body: Fields, buy: boolean, contract: PaperContract, entry: EngineOrder, market: string | null): Fields[] | Refusal {
  const legs: Fields[] = []
  const exit = buy ? 'Sell' : 'Buy'
  for (const [key, sign, kinds] of [['stopLossBracket', buy ? -1 : 1, [OrderType.Stop, OrderType.TrailingStop]], ['takeProfitBracket', buy ? 1 : -1, [OrderType.Limit]]] as const) {
    const bracket = body[key]
    if (bracket === undefined || bracket === null) continue
    const { ticks, type } = bracket as Fields
    if (!Number.isSafeInteger(ticks) || ticks === 0 || Math.sign(ticks as number) !== sign) return reject(`${key}.ticks must be a whole number of ticks, ${sign < 0 ? 'negative' : 'positive'} for a ${buy ? 'buy' : 'sell'} (signed from the entry price)`)
    if (!(kinds as readonly unknown[]).includes(type)) return reject(`${key}.type must be ${kinds.join(' or ')}`)
    const reference = referenceOf(entry, market)
    if (reference === null) return reject(`no market price for ${contract.name} to set the bracket from; set one with POST /dev/prices`)
    const level = offset(reference, ticks as number, contract.spec.tickSize)
    if (compareDecimal(level, '0') <= 0) return reject(`${key} is ${ticks} ticks from ${reference}: below zero`)
    const distance = Number(offset('0', Math.abs(ticks as number), contract.spec.tickSize))
    legs.push(type === OrderType.Limit ? { action: exit, orderType: 'Limit', price: Number(level) } : type === OrderType.Stop ? { action: exit, orderType: 'Stop', stopPrice: Number(level) } : { action: exit, orderType: 'TrailingStop', pegDifference: distance })
  }
  return legs
}

/** Order/place: checks the request as ProjectX would, then places it on the engine (legs tagged `AutoBracket<id>-SL|TP`). */
export function placeOrder(desk: OrderDesk, account: ProjectXPaperAccount | undefined, body: Fields): Outcome {
  if (!account) return refused(PlaceOrderError.AccountNotFound, `account ${String(body.accountId)} not found for this login`)
  const contract = contractOfId(body.contractId, desk.now())
  if (!contract) return refused(PlaceOrderError.ContractNotFound, `contract ${JSON.stringify(body.contractId ?? null)} not found (a ProjectX contract id such as CON.F.US.ENQ.Z26)`)
  if (account.canTrade === false) return refused(PlaceOrderError.OrderRejected, `account ${account.accountId} cannot trade`)
  if (body.side !== 0 && body.side !== 1) return refused(PlaceOrderError.OrderRejected, 'side must be 0 (Bid, buy) or 1 (Ask, sell)')
  if (!isWhole(body.size, 1)) return refused(PlaceOrderError.OrderRejected, 'size must be a whole number of at least 1')
  const tag = typeof body.customTag === 'string' && body.customTag !== '' ? body.customTag : null
  if (tag !== null && desk.market.taggedOrders(account.accountId).some((order) => order.clOrdId === tag)) return refused(PlaceOrderError.OrderRejected, `customTag ${JSON.stringify(tag)} is already used on account ${account.accountId}; it must be unique per account`)
  const balance = desk.market.balanceText(account.accountId) ?? '0'
  if (compareDecimal(balance, '0') <= 0) return refused(PlaceOrderError.InsufficientFunds, `insufficient funds: account ${account.accountId} has a balance of ${balance}`)
  const buy = body.side === 0
  const market = desk.market.price(contract.name)
  const entry = engineOrder(body, buy, contract, market)
  if ('refusal' in entry) return entry.refusal
  const order = { symbol: contract.name, action: buy ? 'Buy' : 'Sell', orderQty: body.size, ...entry, clOrdId: tag, isAutomated: true }
  const bracketed = (body.stopLossBracket ?? body.takeProfitBracket ?? null) !== null
  if (bracketed && account.bracketMode === 'position') {
    const kept = desk.market.rejectOrder(account.accountId, order, 'Brackets cannot be used with Position Brackets')
    return refused(PlaceOrderError.OrderRejected, 'Brackets cannot be used with Position Brackets', { orderId: kept.orderId ?? null })
  }
  const legs = bracketed ? bracketLegs(body, buy, contract, entry, market) : []
  if ('refusal' in legs) return legs.refusal
  const placed: { orderId?: number; failureText?: string; oso1Id?: number; oso2Id?: number } = legs.length === 0 ? desk.market.placeOrder(account.accountId, order) : desk.market.placeOso(account.accountId, { ...order, bracket1: legs[0], bracket2: legs[1] })
  if (placed.orderId === undefined) return refused(PlaceOrderError.OrderRejected, placed.failureText ?? 'order refused')
  if (body.type === OrderType.JoinBid || body.type === OrderType.JoinAsk) desk.book.showType(placed.orderId, body.type)
  const legIds = [placed.oso1Id, placed.oso2Id]
  legIds.forEach((legId, index) => {
    if (legId !== undefined) desk.book.tag(legId, `AutoBracket${placed.orderId}-${(legs as Fields[])[index]?.orderType === 'Limit' ? 'TP' : 'SL'}`)
  })
  return ok({ orderId: placed.orderId })
}
