import type { ClosePart, OrderWord, Side } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import { canonicalName, type Fields } from './fields.ts'
import { booleanValue, priceValue, textValue } from './values.ts'

type Position = Side | 'FLAT'

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * Action words that change the open position (issue 24, docs/decisions/order-words.md), compared after
 * `canonicalName`: TradersPost `add`, CrossTrade `REVERSE`/`REVERSEPOSITION`/`FLATPLACE` (flatten, then place),
 * ours `reverse`, `add_to_position`, `pyramid`.
 */
export const ORDER_WORDS: ReadonlyMap<string, OrderWord> = new Map(
  Object.entries({
    reverse: 'reverse', reverseposition: 'reverse', flatplace: 'reverse', flipposition: 'reverse', flip: 'reverse',
    add: 'add', addtoposition: 'add', addposition: 'add', pyramid: 'add', scalein: 'add',
  } as const),
)

/** An entry from an order word: its side is the position after it when the alert says, else the connector's to work out. */
export function orderWordIntent(word: OrderWord, after: Position | null, before: Position | null): { kind: 'entry'; side: Side | null; reversal: boolean; word: OrderWord } {
  if (after === 'FLAT') throw invalid(`Contradictory alert: the action says ${word} but the position after it is flat`)
  if (word === 'reverse' && after !== null && before === after) {
    throw invalid(`Contradictory alert: the action says reverse but the position is ${after.toLowerCase()} before and after`)
  }
  if (word === 'add' && after !== null && before !== null && before !== after) {
    throw invalid(`Contradictory alert: the action says add but the position goes from ${before.toLowerCase()} to ${after.toLowerCase()}`)
  }
  return { kind: 'entry', side: after, reversal: word === 'reverse', word }
}

/** PickMyTrade `reverse_order_close: true` on a buy or sell: close an opposite position first. */
export function asksToReverse(fields: Fields): boolean {
  return booleanValue(fields.reverseOrderClose)
}

/** TradersPost `quantityType: percent_of_position`: `quantity` is a share of the open position. */
export function percentOfPosition(fields: Fields): number | null {
  const unit = textValue(fields.quantityUnit)
  if (unit === null || canonicalName(unit) !== 'percentofposition') return null
  const percent = priceValue(fields.quantity)
  if (percent === null || percent <= 0 || percent > 100) throw invalid('quantity with quantityType percent_of_position must be a percentage above 0 and at most 100')
  return percent
}

/**
 * How much of the position a partial close closes: a percentage of it (TradersPost `percent_of_position`);
 * with both the contracts sent and the position's size after the order (a strategy's own message:
 * `{{strategy.order.contracts}}`, `{{strategy.market_position_size}}`), the same share of the account's
 * position as of the strategy's (the account is sized by its own risk rules, not in the strategy's
 * contracts); else the contracts sent (`quantity`), else the size after the order. None of them: refused,
 * since closing all would be a guess.
 */
export function closePartOf(fields: Fields, described: string): ClosePart {
  const percent = percentOfPosition(fields)
  if (percent !== null) return { quantity: null, percent, remaining: null }
  const quantity = priceValue(fields.quantity)
  const after = priceValue(fields.positionSize)
  if (quantity !== null && quantity > 0 && after !== null && after !== 0) {
    return { quantity: null, percent: (100 * quantity) / (quantity + Math.abs(after)), remaining: null }
  }
  if (quantity !== null && quantity > 0) return { quantity, percent: null, remaining: null }
  if (fields.quantity !== undefined && quantity !== 0) throw invalid('quantity must be a positive number of contracts')
  const size = priceValue(fields.positionSize)
  if (size !== null) return { quantity: null, percent: null, remaining: Math.abs(size) }
  throw invalid(`${described} closes part of the position, but the alert says neither how much (quantity, quantityType percent_of_position) nor the position size after it (market_position_size)`)
}
