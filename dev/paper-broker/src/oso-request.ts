import type { Action, OrderType, PlaceOsoResult } from '@signals/tradovate-wire'
import { findContract, type PaperContract } from './contracts.ts'
import { compareDecimal, onTick, priceText } from './decimal-text.ts'

/** One order of a checked `order/placeOSO` request; prices as exact decimal text; the tag goes on its `New` command. */
export interface OrderPlan {
  action: Action
  orderType: PaperOrderType
  price: string | null
  stopPrice: string | null
  /** A trailing order's distance from the market (`pegDifference`, its magnitude), as exact decimal text. */
  pegDifference: string | null
  clOrdId: string | null
}

export interface OsoPlan {
  contract: PaperContract
  qty: number
  isAutomated: boolean
  entry: OrderPlan
  legs: OrderPlan[]
}

export type Failure = Required<Pick<PlaceOsoResult, 'failureReason' | 'failureText'>>
export const fail = (failureReason: string, failureText: string): { failure: Failure } => ({ failure: { failureReason, failureText } })
/** The order types the paper market simulates. */
export type PaperOrderType = Extract<OrderType, 'Market' | 'Limit' | 'Stop' | 'StopLimit' | 'TrailingStop' | 'TrailingStopLimit'>
const ORDER_TYPES: readonly OrderType[] = ['Market', 'Limit', 'Stop', 'StopLimit', 'TrailingStop', 'TrailingStopLimit']

/**
 * The prices an order type needs: a Limit its `price`, a Stop its `stopPrice`, a StopLimit both; a
 * TrailingStop its `pegDifference` (its distance from the market; the sign is not used) and optionally a
 * first `stopPrice` (else the market's price less the distance when it starts working); a
 * TrailingStopLimit `pegDifference`, `stopPrice` and `price` (the limit keeps its distance from the stop).
 */
function planLevels(order: Record<string, unknown>, orderType: PaperOrderType, what: string): Pick<OrderPlan, 'price' | 'stopPrice' | 'pegDifference'> | { failure: Failure } {
  const needsPrice = orderType === 'Limit' || orderType === 'StopLimit' || orderType === 'TrailingStopLimit'
  const needsStop = orderType === 'Stop' || orderType === 'StopLimit' || orderType === 'TrailingStopLimit'
  const trailing = orderType === 'TrailingStop' || orderType === 'TrailingStopLimit'
  const price = needsPrice ? priceText(order.price) : null
  const stopPrice = needsStop || (trailing && order.stopPrice !== undefined) ? priceText(order.stopPrice) : null
  const peg = trailing ? priceText(order.pegDifference) : null
  if (needsPrice && price === null) return fail('InvalidPrice', `${what} is a ${orderType} order without a price`)
  if ((needsStop || (trailing && order.stopPrice !== undefined)) && stopPrice === null) return fail('InvalidPrice', `${what} is a ${orderType} order without a stopPrice`)
  const pegDifference = peg === null ? null : peg.replace(/^-/, '')
  if (trailing && (pegDifference === null || compareDecimal(pegDifference, '0') === 0)) return fail('InvalidPrice', `${what} is a ${orderType} order without a pegDifference (its distance from the market)`)
  return { price, stopPrice, pegDifference }
}

/** Checks one order's type, side and prices (on the contract's tick); a failure says what was wrong. */
function planOrder(value: unknown, what: string, contract: PaperContract): { plan: OrderPlan } | { failure: Failure } {
  if (typeof value !== 'object' || value === null) return fail('UnknownReason', `${what} is missing`)
  const order = value as Record<string, unknown>
  if (order.action !== 'Buy' && order.action !== 'Sell') return fail('UnknownReason', `${what}.action must be Buy or Sell`)
  const orderType = order.orderType as PaperOrderType
  if (!ORDER_TYPES.includes(orderType)) return fail('Unsupported', `${what}.orderType ${String(order.orderType)} is not supported (${ORDER_TYPES.join(', ')})`)
  const levels = planLevels(order, orderType, what)
  if ('failure' in levels) return levels
  for (const level of [levels.price, levels.stopPrice, levels.pegDifference]) {
    if (level !== null && !onTick(level, contract.spec.tickSize)) return fail('InvalidPrice', `${what} price ${level} is not on the ${contract.name} tick (${contract.spec.tickSize})`)
  }
  const clOrdId = typeof order.clOrdId === 'string' && order.clOrdId !== '' ? order.clOrdId : null
  return { plan: { action: order.action, orderType, ...levels, clOrdId } }
}

/** What `order/placeorder` and `order/placeOSO` have in common: a JSON object, `isAutomated`, the contract, `orderQty`. */
function planCommon(body: unknown): { request: Record<string, unknown>; contract: PaperContract; qty: number; isAutomated: boolean } | { failure: Failure } {
  if (typeof body !== 'object' || body === null) return fail('UnknownReason', 'the request body must be a JSON object')
  const request = body as Record<string, unknown>
  if (typeof request.isAutomated !== 'boolean') return fail('UnknownReason', 'isAutomated must be a boolean')
  const contract = typeof request.symbol === 'string' ? findContract(request.symbol) : null
  if (!contract) return fail('InvalidContract', `unknown contract ${JSON.stringify(request.symbol ?? null)}`)
  const qty = request.orderQty
  if (typeof qty !== 'number' || !Number.isSafeInteger(qty) || qty < 1) return fail('UnknownReason', 'orderQty must be a whole number of at least 1')
  return { request, contract, qty, isAutomated: request.isAutomated }
}

/** Checks an `order/placeorder` body (one order, no legs). */
export function planSingle(body: unknown): { plan: Omit<OsoPlan, 'legs'> } | { failure: Failure } {
  const common = planCommon(body)
  if ('failure' in common) return common
  const { request, contract, qty, isAutomated } = common
  const order = planOrder(request, 'the order', contract)
  if ('failure' in order) return order
  return { plan: { contract, qty, isAutomated, entry: order.plan } }
}

/** Checks an `order/placeOSO` body as Tradovate would (the subset the paper market simulates). */
export function planOso(body: unknown): { plan: OsoPlan } | { failure: Failure } {
  const common = planCommon(body)
  if ('failure' in common) return common
  const { request, contract, qty } = common
  const entry = planOrder(request, 'the entry', contract)
  if ('failure' in entry) return entry
  const legs: OrderPlan[] = []
  for (const key of ['bracket1', 'bracket2'] as const) {
    if (request[key] === undefined && key === 'bracket2') continue
    const leg = planOrder(request[key], key, contract)
    if ('failure' in leg) return leg
    if (leg.plan.action === entry.plan.action) return fail('UnknownReason', `${key}.action must be the opposite of the entry's`)
    if (leg.plan.orderType === 'Market') return fail('Unsupported', `${key} must be a Limit, Stop, StopLimit or trailing order, not Market`)
    legs.push(leg.plan)
  }
  return { plan: { contract, qty, isAutomated: common.isAutomated, entry: entry.plan, legs } }
}

/** Checks an `order/placeOCO` body: one order and its `other` (same contract and quantity), both closing the same side. */
export function planOco(body: unknown): { plan: Omit<OsoPlan, 'legs'> & { other: OrderPlan } } | { failure: Failure } {
  const single = planSingle(body)
  if ('failure' in single) return single
  const other = planOrder((body as Record<string, unknown>).other, 'other', single.plan.contract)
  if ('failure' in other) return other
  if (other.plan.action !== single.plan.entry.action) return fail('UnknownReason', "other.action must be the order's own action")
  if (other.plan.orderType === 'Market' || single.plan.entry.orderType === 'Market') return fail('Unsupported', 'an OCO pair is two resting orders (Limit, Stop, StopLimit or trailing), not Market')
  return { plan: { ...single.plan, other: other.plan } }
}
