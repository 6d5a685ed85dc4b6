import { Refusal } from '../refusal.ts'
import type { FieldName, Fields } from './fields.ts'
import { priceValue, textValue } from './values.ts'

/** PickMyTrade's relative brackets, worked out at PickMyTrade from its own symbol settings. */
const RELATIVE_BRACKETS: readonly [FieldName, string][] = [
  ['tpPercent', 'percentage_tp'], ['tpDollars', 'dollar_tp'], ['slPercent', 'percentage_sl'], ['slDollars', 'dollar_sl'],
]

const UNSUPPORTED_FIELDS: ReadonlySet<string> = new Set<FieldName>(['tpPercent', 'tpDollars', 'slPercent', 'slDollars', 'trail', 'trailPickMyTrade'])

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * Refuses (400) an entry asking for what this service does not do, rather than dropping the request
 * silently: PickMyTrade's percentage/dollar brackets and trailing stop. (Order types are entry-order.ts's,
 * `update_sl`/`update_tp` order-instructions.ts's.)
 */
export function refuseUnsupportedEntry(fields: Fields): void {
  if (!sendsAny(fields)) return
  for (const [field, name] of RELATIVE_BRACKETS) {
    if (nonZero(fields[field])) throw invalid(`${name} is not supported: send tp and sl as prices`)
  }
  // PickMyTrade's trail fields are in its own symbol settings' units: ours say ticks or price (exit-plan.ts).
  if (nonZero(fields.trail) || nonZero(fields.trailPickMyTrade)) throw invalid("PickMyTrade's trailing stop (trail, trail_stop, trail_trigger, trail_freq) is not supported: send sl with trail_distance_ticks (or trail_distance as a price), and optionally trail_trigger_price and trail_step_ticks")
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
