import type { Side, TrailingStop } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import type { Fields } from './fields.ts'
import { priceValue } from './values.ts'

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * The entry's trailing stop (ours: docs/decisions/targets-breakeven.md), or null when it asks for none.
 * Refused (400) rather than guessed: both distances or none with a trigger or step, ticks that are not
 * whole, a trigger that is not beyond the entry price on the profit side.
 */
export function trailingStopOf(fields: Fields, context: { side: Side | null; entryPrice: number | null }): TrailingStop | null {
  const ticks = wholeTicks(fields.trailTicks, 'trail_distance_ticks')
  const distance = positive(fields.trailDistance, 'trail_distance', 'a price distance above 0')
  const trigger = positive(fields.trailTriggerPrice, 'trail_trigger_price', 'a price')
  const step = wholeTicks(fields.trailStepTicks, 'trail_step_ticks')
  if (ticks !== null && distance !== null) throw invalid('send trail_distance_ticks or trail_distance, not both')
  if (ticks === null && distance === null) {
    if (trigger !== null || step !== null) throw invalid('a trailing stop needs its distance: send trail_distance_ticks (or trail_distance as a price)')
    return null
  }
  if (trigger !== null && context.side !== null && context.entryPrice !== null) {
    const up = context.side === 'LONG'
    if (up ? trigger <= context.entryPrice : trigger >= context.entryPrice) {
      throw invalid(`trail_trigger_price (${trigger}) is not ${up ? 'above' : 'below'} the ${context.side} entry price ${context.entryPrice}`)
    }
  }
  return { distanceTicks: ticks, distancePrice: distance, triggerPrice: trigger, stepTicks: step ?? 1 }
}

function wholeTicks(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const ticks = priceValue(value)
  if (ticks === null || !Number.isInteger(ticks) || ticks < 1 || ticks > 100_000) throw invalid(`${name} must be whole ticks from 1 to 100000`)
  return ticks
}

function positive(value: unknown, name: string, what: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const number = priceValue(value)
  if (number === null || number <= 0) throw invalid(`${name} must be ${what}`)
  return number
}
