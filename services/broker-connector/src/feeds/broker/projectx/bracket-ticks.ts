import { compare, floorDivide, multiply, parseDecimal, subtract, toPlain } from '@signals/instruments'
import { BrokerError } from '../broker-adapter.ts'

/**
 * ProjectX's bracket legs are signed tick distances from the entry's price (a buy's stop below it,
 * negative; its target above, positive). Our legs are absolute prices on the tick, so the distance must be
 * a whole, non-zero number of ticks on the right side; anything else is refused, never rounded.
 */
export function bracketTicks(what: 'stop' | 'target', level: string, reference: string, tickSize: string, buy: boolean): number {
  const distance = subtract(parseDecimal(level), parseDecimal(reference))
  const tick = parseDecimal(tickSize)
  const ticks = floorDivide(distance, tick)
  if (compare(multiply(tick, parseDecimal(ticks.toString())), distance) !== 0) throw new BrokerError('rejected', `the ${what} ${level} is not a whole number of ticks (${tickSize}) from the entry price ${reference}`)
  const below = (what === 'stop') === buy
  if (ticks === 0n || (below ? ticks > 0n : ticks < 0n)) {
    throw new BrokerError('rejected', `the ${what} ${level} must be ${below ? 'below' : 'above'} the entry price ${reference} for a ${buy ? 'buy' : 'sell'} (ProjectX counts bracket ticks from it)`)
  }
  return Number(ticks)
}

/** Exact decimal text of a number the wire gave (tick sizes). */
export const tickText = (tickSize: number): string => toPlain(parseDecimal(String(tickSize)))
