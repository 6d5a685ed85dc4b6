import { Refusal } from '../refusal.ts'
import { canonicalName, type Fields } from './fields.ts'
import type { Intent } from './intent.ts'
import { priceValue, textValue } from './values.ts'

/** Units that mean "a number of contracts" (TradersPost `quantityType`, 3Commas `order.currency_type`). */
const CONTRACT_UNITS = new Set(['fixedquantity', 'base', 'contracts', 'contract', 'fixed'])

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * Contracts the sender asked for, or null. 0 means "not given" (PickMyTrade sends 0 when it sizes by risk).
 * On an entry, a size that is not a positive number or not in contracts is refused. On a strategy
 * reversal, `{{strategy.order.contracts}}` counts the contracts that close the old position too, so the
 * new position's size (`market_position_size`) is used, or none when it is not sent.
 */
export function quantityOf(fields: Fields, intent: Intent): number | null {
  const entry = intent.kind === 'entry'
  const unit = textValue(fields.quantityUnit)
  if (unit !== null && !CONTRACT_UNITS.has(canonicalName(unit))) {
    if (entry) throw invalid(`quantity in "${unit.slice(0, 40)}" is not supported: send quantity as a number of contracts`)
    return null
  }
  if (entry && intent.reversal) {
    const size = priceValue(fields.positionSize)
    return size === null || size === 0 ? null : Math.abs(size)
  }
  if (fields.quantity === undefined) return null
  const quantity = priceValue(fields.quantity)
  if (quantity === 0) return null
  if (quantity === null || quantity < 0) {
    if (entry) throw invalid('quantity must be a positive number of contracts')
    return null
  }
  return quantity
}
