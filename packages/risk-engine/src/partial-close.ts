/** How much of a position a partial close asks for (one of the three is set; issue 24 item 3). */
export interface ClosePartAsked {
  quantity: number | null
  percent: number | null
  remaining: number | null
}

export type PartialClose = { kind: 'close'; quantity: number } | { kind: 'none'; reason: string }

/**
 * Contracts a partial close takes off a position of `held` contracts: whole contracts only, never more than
 * held (a close never turns into a position on the other side). A percentage rounds down (50% of 3 is 1:
 * a close is never larger than asked); the strategy's size after the order closes the difference.
 */
export function partialCloseQuantity(held: number, asked: ClosePartAsked): PartialClose {
  if (!Number.isInteger(held) || held <= 0) return { kind: 'none', reason: 'no position is held, so nothing is closed' }
  if (asked.percent !== null) {
    const quantity = Math.floor((held * asked.percent) / 100 + 1e-9)
    if (quantity === 0) return { kind: 'none', reason: `${asked.percent}% of ${held} contract(s) is less than one contract, so nothing is closed` }
    return { kind: 'close', quantity }
  }
  if (asked.quantity !== null) {
    const quantity = Math.min(held, Math.floor(asked.quantity + 1e-9))
    if (quantity === 0) return { kind: 'none', reason: `${asked.quantity} is less than one contract, so nothing is closed` }
    return { kind: 'close', quantity }
  }
  if (asked.remaining !== null) {
    const quantity = held - Math.ceil(asked.remaining - 1e-9)
    if (quantity <= 0) return { kind: 'none', reason: `the position is ${held} contract(s), already at or below the ${asked.remaining} asked to remain, so nothing is closed` }
    return { kind: 'close', quantity }
  }
  return { kind: 'none', reason: 'the alert said neither how much to close nor the size to keep' }
}
