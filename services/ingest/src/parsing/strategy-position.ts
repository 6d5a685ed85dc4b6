import type { StrategyPosition, StrategyPositionSide } from '@signals/contracts'
import { canonicalName, valuesOf, type Fields } from './fields.ts'
import { priceValue, textValue } from './values.ts'

/** Position words as intent.ts reads them (it has refused unknown and contradicting ones by now). */
const SIDES: ReadonlyMap<string, StrategyPositionSide> = new Map(
  Object.entries({ long: 'LONG', bullish: 'LONG', buy: 'LONG', short: 'SHORT', bearish: 'SHORT', sell: 'SHORT', flat: 'FLAT', exit: 'FLAT', close: 'FLAT', closed: 'FLAT', none: 'FLAT', neutral: 'FLAT' } satisfies Record<string, StrategyPositionSide>),
)

const sideOf = (fields: Fields, field: 'prevMarketPosition' | 'marketPosition' | 'sentiment'): StrategyPositionSide | null => {
  const first = valuesOf(fields, field)[0]
  const word = first === undefined ? null : textValue(first)
  return word === null ? null : (SIDES.get(canonicalName(word)) ?? null)
}

/**
 * Where the sender's strategy says its position was before the entry and is after it, for the connector's
 * position sync guard (issue 24, item 7); null when the alert does not say where it was before (nothing to
 * compare the account with).
 */
export function strategyPositionOf(fields: Fields): StrategyPosition | null {
  const before = sideOf(fields, 'prevMarketPosition')
  if (before === null) return null
  const size = priceValue(fields.positionSize)
  return { before, after: sideOf(fields, 'marketPosition') ?? sideOf(fields, 'sentiment'), size: size === null ? null : Math.abs(size) }
}
