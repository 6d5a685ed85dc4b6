import { Refusal } from '../refusal.ts'
import { canonicalName, type FieldName, type Fields } from './fields.ts'
import { booleanValue, priceValue, textValue } from './values.ts'

/** Entry order types placed here: a market or limit entry with its bracket (PickMyTrade spells them MKT, LMT). */
const ENTRY_ORDER_TYPES = new Set(['market', 'limit', 'mkt', 'lmt'])

/** PickMyTrade's relative brackets, worked out at PickMyTrade from its own symbol settings. */
const RELATIVE_BRACKETS: readonly [FieldName, string][] = [
  ['tpPercent', 'percentage_tp'], ['tpDollars', 'dollar_tp'], ['slPercent', 'percentage_sl'], ['slDollars', 'dollar_sl'],
]

const UNSUPPORTED_FIELDS: ReadonlySet<string> = new Set<FieldName>(['orderType', 'updateTp', 'updateSl', 'tpPercent', 'tpDollars', 'slPercent', 'slDollars', 'trail'])

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * Refuses (400) an entry asking for what this service does not do, rather than dropping the request
 * silently: a stop or trailing entry order, PickMyTrade's percentage/dollar brackets and trailing stop,
 * or an update of an open position's bracket (which is not an entry at all).
 */
export function refuseUnsupportedEntry(fields: Fields): void {
  if (!sendsAny(fields)) return
  const orderType = textValue(fields.orderType)
  if (orderType !== null && !ENTRY_ORDER_TYPES.has(canonicalName(orderType))) {
    throw invalid(`orderType "${orderType.slice(0, 40)}" is not supported: entries are market or limit orders with their bracket`)
  }
  if (booleanValue(fields.updateTp) || booleanValue(fields.updateSl)) {
    throw invalid('update_tp/update_sl (changing an open position\'s bracket) is not supported: send a new entry or an exit')
  }
  for (const [field, name] of RELATIVE_BRACKETS) {
    if (nonZero(fields[field])) throw invalid(`${name} is not supported: send tp and sl as prices`)
  }
  if (nonZero(fields.trail)) throw invalid('trailing stops (trail) are not supported: send sl as a price')
}

/** Cheap first look (every entry passes here): none of these fields is usually sent. */
function sendsAny(fields: Fields): boolean {
  for (const field in fields) if (UNSUPPORTED_FIELDS.has(field)) return true
  return false
}

function nonZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false
  const number = priceValue(value)
  return number === null ? textValue(value) !== null : number !== 0
}
