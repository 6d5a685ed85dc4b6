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

/** The alert's close counted in this account's contracts, or why it cannot be. */
export type CloseInAccount = { kind: 'asked'; asked: ClosePartAsked } | { kind: 'none'; reason: string }

/**
 * A source sized by a multiplier (issue 22, docs/decisions/signal-sources.md) speaks in its strategy's
 * contracts: "close 1" or "1 remains" of the 2 it entered is 2 or 2 of the account's 4 at x2. So a quantity
 * and what remains are multiplied by the rule the closed trades were sized by (`multipliers`, one per trade;
 * null: the account's own sizing, counted as they are); a percentage is the same in both. Trades sized by
 * different rules cannot be counted so: refused, a percentage still works.
 */
export function closeInAccount(asked: ClosePartAsked, multipliers: readonly (string | null)[]): CloseInAccount {
  if (asked.percent !== null) return { kind: 'asked', asked }
  const rules = [...new Set(multipliers.map((multiplier) => (multiplier === null ? null : Number(multiplier))))]
  if (rules.length > 1) {
    const named = rules.map((rule) => (rule === null ? "the account's own sizing" : `x${rule}`)).join(', ')
    return { kind: 'none', reason: `the trades it would close were sized by different rules (${named}), so a quantity or the size to keep cannot be counted in this account's contracts; a percentage can` }
  }
  const rule = rules[0] ?? null
  if (rule === null) return { kind: 'asked', asked }
  return { kind: 'asked', asked: { percent: null, quantity: asked.quantity === null ? null : asked.quantity * rule, remaining: asked.remaining === null ? null : asked.remaining * rule } }
}
