import { add } from './decimal-text.ts'
import { multiply, negate, parseDecimal, subtract, toFixed } from '@signals/instruments'

interface Lot {
  /** Signed: positive long. */
  qty: number
  price: string
}

export interface PositionState {
  accountId: number
  contractId: number
  lots: Lot[]
  bought: number
  boughtValue: string
  sold: number
  soldValue: string
}

/** Net position of a state (signed). */
export const netPos = (state: PositionState): number => state.lots.reduce((sum, lot) => sum + lot.qty, 0)

/** Average price of the open lots, as a number for display (Tradovate's `netPrice`); undefined when flat. */
export function netPrice(state: PositionState): number | undefined {
  const open = Math.abs(netPos(state))
  if (open === 0) return undefined
  return state.lots.reduce((sum, lot) => sum + Math.abs(lot.qty) * Number(lot.price), 0) / open
}

/**
 * Applies a fill to a position, first-in first-out: a fill against the position closes the oldest lots and
 * realizes (exit - entry) x qty x point value (negated for a short), exactly; the rest opens a new lot.
 * Returns the realized pnl in cents text ("0.00" when nothing closed).
 */
export function applyFill(state: PositionState, action: 'Buy' | 'Sell', qty: number, price: string, pointValue: string): string {
  const signed = action === 'Buy' ? qty : -qty
  if (action === 'Buy') {
    state.bought += qty
    state.boughtValue = add(state.boughtValue, toFixed(multiply(parseDecimal(price), parseDecimal(qty)), 8))
  } else {
    state.sold += qty
    state.soldValue = add(state.soldValue, toFixed(multiply(parseDecimal(price), parseDecimal(qty)), 8))
  }
  let remaining = signed
  let realized = parseDecimal('0')
  while (remaining !== 0 && state.lots.length > 0 && Math.sign(state.lots[0]!.qty) !== Math.sign(remaining)) {
    const lot = state.lots[0]!
    const closed = Math.min(Math.abs(lot.qty), Math.abs(remaining))
    const move = subtract(parseDecimal(price), parseDecimal(lot.price))
    const gross = multiply(multiply(move, parseDecimal(closed)), parseDecimal(pointValue))
    realized = parseDecimal(add(toFixed(realized, 8), toFixed(lot.qty > 0 ? gross : negate(gross), 8)))
    lot.qty -= Math.sign(lot.qty) * closed
    remaining -= Math.sign(remaining) * closed
    if (lot.qty === 0) state.lots.shift()
  }
  if (remaining !== 0) state.lots.push({ qty: remaining, price })
  return toFixed(realized, 2)
}
