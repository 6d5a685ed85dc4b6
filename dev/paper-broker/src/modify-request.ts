import type { PaperContract } from './contracts.ts'
import { onTick, priceText } from './decimal-text.ts'
import { fail, type Failure } from './oso-request.ts'

/** A checked `order/modifyorder`: the new whole quantity (filled part included) and, by type, the new price. */
export interface ModifyPlan {
  orderId: number
  orderQty: number
  orderType: string
  price: string | null
  stopPrice: string | null
  /** A trailing order's new distance from the market (its magnitude). */
  pegDifference: string | null
  isAutomated: boolean
}

/** Checks an `order/modifyorder` body's own fields (the order it names is checked by the market). */
export function planModify(body: unknown): { plan: ModifyPlan } | { failure: Failure } {
  if (typeof body !== 'object' || body === null) return fail('UnknownReason', 'the request body must be a JSON object')
  const request = body as Record<string, unknown>
  if (typeof request.orderId !== 'number' || !Number.isSafeInteger(request.orderId)) return fail('UnknownReason', 'orderId is required')
  const qty = request.orderQty
  if (typeof qty !== 'number' || !Number.isSafeInteger(qty) || qty < 1) return fail('UnknownReason', 'orderQty must be a whole number of at least 1')
  if (typeof request.orderType !== 'string') return fail('UnknownReason', 'orderType is required')
  const price = request.price === undefined ? null : priceText(request.price)
  const stopPrice = request.stopPrice === undefined ? null : priceText(request.stopPrice)
  const peg = request.pegDifference === undefined ? null : priceText(request.pegDifference)
  if ((request.price !== undefined && price === null) || (request.stopPrice !== undefined && stopPrice === null) || (request.pegDifference !== undefined && peg === null)) {
    return fail('InvalidPrice', 'price, stopPrice and pegDifference must be numbers')
  }
  const pegDifference = peg === null ? null : peg.replace(/^-/, '')
  if (pegDifference !== null && Number(pegDifference) === 0) return fail('InvalidPrice', 'pegDifference must not be 0')
  return { plan: { orderId: request.orderId, orderQty: qty, orderType: request.orderType, price, stopPrice, pegDifference, isAutomated: request.isAutomated === true } }
}

/** A modify's new prices must be on the contract's tick. */
export function offTick(plan: ModifyPlan, contract: PaperContract): { failure: Failure } | null {
  for (const level of [plan.price, plan.stopPrice, plan.pegDifference]) {
    if (level !== null && !onTick(level, contract.spec.tickSize)) return fail('InvalidPrice', `price ${level} is not on the ${contract.name} tick (${contract.spec.tickSize})`)
  }
  return null
}
