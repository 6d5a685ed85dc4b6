import { absolute, compare, type Decimal, floorDivide, multiply, negate, subtract } from '@signals/instruments'
import { decimal, plain } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { ContractTerms, EntryIntent } from './sizing-types.ts'

/** The stop and what one contract loses there, measured from the price the entry fills at. */
export interface StopRisk {
  price: Decimal
  /** Distance from the fill price in points, rounded up to whole ticks (an off-tick price may round away from it). */
  points: Decimal
  /** The same distance in ticks. */
  ticks: bigint
  /** Loss of one contract at the stop: points x point value. */
  riskPerContract: Decimal
}

/** The alert's prices, checked against each other. */
export interface EntryPrices {
  entry: Decimal | null
  stop: Decimal | null
  target: Decimal | null
}

/** An alert price that is not a decimal number; the message is the trader's sentence. */
class InvalidPriceError extends Error {}

function parsePrice(value: string | null, label: string): Decimal | null {
  if (value === null) return null
  try {
    return decimal(value)
  } catch (error) {
    if (error instanceof RangeError) throw new InvalidPriceError(`The alert's ${label} ${JSON.stringify(value)} is not a number.`)
    throw error
  }
}

export function readEntryPrices(alert: EntryIntent): EntryPrices | Refusal {
  try {
    return checkEntryPrices(alert, parsePrice(alert.entryPrice, 'entry price'), parsePrice(alert.stopPrice, 'stop'), parsePrice(alert.targetPrice, 'target'))
  } catch (error) {
    if (error instanceof InvalidPriceError) return refuse('invalid_price', error.message)
    throw error
  }
}

function checkEntryPrices(alert: EntryIntent, entryPrice: Decimal | null, stopPrice: Decimal | null, targetPrice: Decimal | null): EntryPrices | Refusal {
  if (entryPrice === null) {
    if (stopPrice !== null || targetPrice !== null) {
      return refuse('no_entry_price', 'The alert has a stop or target but no entry price, so neither can be checked against the entry or sized.')
    }
    return { entry: null, stop: null, target: null }
  }
  const direction = alert.side === 'LONG' ? 1 : -1
  if (stopPrice !== null && compare(entryPrice, stopPrice) !== direction) {
    return refuse('stop_on_wrong_side', `The stop ${plain(stopPrice)} must be ${direction === 1 ? 'below' : 'above'} the ${alert.side} entry ${plain(entryPrice)}.`)
  }
  if (targetPrice !== null && compare(targetPrice, entryPrice) !== direction) {
    return refuse('target_on_wrong_side', `The target ${plain(targetPrice)} must be ${direction === 1 ? 'above' : 'below'} the ${alert.side} entry ${plain(entryPrice)}.`)
  }
  return { entry: entryPrice, stop: stopPrice, target: targetPrice }
}

/** Whole ticks in a price distance, rounded up. */
export function ticksIn(points: Decimal, tick: Decimal): bigint {
  return -floorDivide(negate(points), tick)
}

/** The stop's distance from the fill price, rounded up to whole ticks, and what one contract loses there. */
export function stopRiskFrom(fill: Decimal, stop: Decimal, contract: ContractTerms): StopRisk {
  const tick = decimal(contract.tickSize)
  const ticks = ticksIn(absolute(subtract(fill, stop)), tick)
  const points = multiply({ units: ticks, scale: 0 }, tick)
  return { price: stop, points, ticks, riskPerContract: multiply(points, decimal(contract.pointValue)) }
}
