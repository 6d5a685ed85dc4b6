import type { Action } from '@signals/tradovate-wire'
import { parseDecimal, subtract, toFixed } from '@signals/instruments'
import { add, compareDecimal, normalizeDecimal } from './decimal-text.ts'
import type { PaperOrderType } from './oso-request.ts'

/** a - b for exact decimal text. */
export function minus(a: string, b: string): string {
  const left = parseDecimal(a)
  const right = parseDecimal(b)
  return normalizeDecimal(toFixed(subtract(left, right), Math.max(left.scale, right.scale)))
}

/** The terms of a resting order that decide when it fills (the engine's view; prices as exact decimal text). */
export interface OrderTerms {
  action: Action
  orderType: PaperOrderType
  price: string | null
  stopPrice: string | null
  pegDifference: string | null
  /** A stop-limit whose stop was reached: it rests as a limit from then on. */
  stopTriggered: boolean
}

export const isTrailing = (type: PaperOrderType): boolean => type === 'TrailingStop' || type === 'TrailingStopLimit'
export const hasStop = (type: PaperOrderType): boolean => type !== 'Market' && type !== 'Limit'
export const hasLimit = (type: PaperOrderType): boolean => type === 'Limit' || type === 'StopLimit' || type === 'TrailingStopLimit'

/** A buy limit is reached at or below it, a sell limit at or above. */
function limitReached(action: Action, limit: string, price: string): boolean {
  return action === 'Buy' ? compareDecimal(price, limit) <= 0 : compareDecimal(price, limit) >= 0
}

/** A buy stop is reached at or above it, a sell stop at or below. */
function stopReached(action: Action, stop: string, price: string): boolean {
  return action === 'Buy' ? compareDecimal(price, stop) >= 0 : compareDecimal(price, stop) <= 0
}

/** Where a trailing order's stop stands for a market price: the price less the distance for a sell, plus it for a buy. */
export function trailingStopFor(action: Action, pegDifference: string, price: string): string {
  return action === 'Sell' ? minus(price, pegDifference) : normalizeDecimal(add(price, pegDifference))
}

/**
 * A trailing order follows the market in its favour only: a sell stop rises with the price (never falls),
 * a buy stop falls with it. Returns the new stop and, for a trailing stop-limit, the limit moved by as much;
 * null when the stop stays.
 */
export function trail(terms: OrderTerms, price: string): { stopPrice: string; price: string | null } | null {
  if (!isTrailing(terms.orderType) || terms.pegDifference === null || terms.stopTriggered) return null
  const candidate = normalizeDecimal(trailingStopFor(terms.action, terms.pegDifference, price))
  if (terms.stopPrice !== null) {
    const better = terms.action === 'Sell' ? compareDecimal(candidate, terms.stopPrice) > 0 : compareDecimal(candidate, terms.stopPrice) < 0
    if (!better) return null
  }
  const moved = terms.stopPrice === null ? '0' : minus(candidate, terms.stopPrice)
  return { stopPrice: candidate, price: terms.price === null ? null : normalizeDecimal(add(terms.price, moved)) }
}

/**
 * Whether a price reaches the order, and how: `stop` (a stop or trailing stop reached: it fills at its stop on a
 * move), `limit` (a limit, or a stop-limit already resting as a limit: fills at its limit on a move), `triggered`
 * (a stop-limit whose stop this price reached and whose limit it reaches too: it fills at the price, as a limit
 * marketable when it becomes active). `armed`: a stop-limit's stop was reached but not its limit (it now rests).
 */
export function reached(terms: OrderTerms, price: string): { fill: 'market' | 'stop' | 'limit' | 'triggered' | null; armed: boolean } {
  const { action, orderType } = terms
  if (orderType === 'Market') return { fill: 'market', armed: false }
  if (orderType === 'Limit' || terms.stopTriggered) return { fill: limitReached(action, terms.price as string, price) ? 'limit' : null, armed: false }
  if (terms.stopPrice === null || !stopReached(action, terms.stopPrice, price)) return { fill: null, armed: false }
  if (!hasLimit(orderType)) return { fill: 'stop', armed: false }
  return limitReached(action, terms.price as string, price) ? { fill: 'triggered', armed: true } : { fill: null, armed: true }
}
