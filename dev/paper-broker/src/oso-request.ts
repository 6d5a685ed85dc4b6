import type { Action, OrderType, PlaceOsoResult } from '@signals/tradovate-wire'
import { findContract, type PaperContract } from './contracts.ts'
import { onTick, priceText } from './decimal-text.ts'

/** One order of a checked `order/placeOSO` request; prices as exact decimal text; the tag goes on its `New` command. */
export interface OrderPlan {
  action: Action
  orderType: 'Market' | 'Limit' | 'Stop'
  price: string | null
  stopPrice: string | null
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
const ORDER_TYPES: readonly OrderType[] = ['Market', 'Limit', 'Stop']

/** Checks one order's type, side and prices (on the contract's tick); a failure says what was wrong. */
function planOrder(value: unknown, what: string, contract: PaperContract): { plan: OrderPlan } | { failure: Failure } {
  if (typeof value !== 'object' || value === null) return fail('UnknownReason', `${what} is missing`)
  const order = value as Record<string, unknown>
  if (order.action !== 'Buy' && order.action !== 'Sell') return fail('UnknownReason', `${what}.action must be Buy or Sell`)
  const orderType = order.orderType as OrderType
  if (!ORDER_TYPES.includes(orderType)) return fail('Unsupported', `${what}.orderType ${String(order.orderType)} is not supported (Market, Limit, Stop)`)
  const price = orderType === 'Limit' ? priceText(order.price) : null
  const stopPrice = orderType === 'Stop' ? priceText(order.stopPrice) : null
  if (orderType === 'Limit' && price === null) return fail('InvalidPrice', `${what} is a Limit order without a price`)
  if (orderType === 'Stop' && stopPrice === null) return fail('InvalidPrice', `${what} is a Stop order without a stopPrice`)
  for (const level of [price, stopPrice]) {
    if (level !== null && !onTick(level, contract.spec.tickSize)) return fail('InvalidPrice', `${what} price ${level} is not on the ${contract.name} tick (${contract.spec.tickSize})`)
  }
  const clOrdId = typeof order.clOrdId === 'string' && order.clOrdId !== '' ? order.clOrdId : null
  return { plan: { action: order.action, orderType: orderType as OrderPlan['orderType'], price, stopPrice, clOrdId } }
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
    if (leg.plan.orderType === 'Market') return fail('Unsupported', `${key} must be a Stop or Limit order`)
    legs.push(leg.plan)
  }
  return { plan: { contract, qty, isAutomated: common.isAutomated, entry: entry.plan, legs } }
}
