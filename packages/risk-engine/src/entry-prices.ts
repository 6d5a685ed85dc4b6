import { absolute, compare, type Decimal, floorDivide, multiply, negate, subtract } from '@signals/instruments'
import { decimal, plain } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { ContractTerms, EntryIntent } from './sizing-types.ts'

/** The alert's stop and what one contract loses there. */
export interface StopRisk {
  price: Decimal
  /** Distance from the entry in points, rounded up to whole ticks (an off-tick price may round away from the entry). */
  points: Decimal
  /** Loss of one contract at the stop: points x point value. */
  riskPerContract: Decimal
}

/** The alert's prices, checked against each other. */
export interface EntryPrices {
  entry: Decimal | null
  stop: StopRisk | null
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

export function readEntryPrices(alert: EntryIntent, contract: ContractTerms): EntryPrices | Refusal {
  try {
    return checkEntryPrices(alert, contract, parsePrice(alert.entryPrice, 'entry price'), parsePrice(alert.stopPrice, 'stop'), parsePrice(alert.targetPrice, 'target'))
  } catch (error) {
    if (error instanceof InvalidPriceError) return refuse('invalid_price', error.message)
    throw error
  }
}

function checkEntryPrices(alert: EntryIntent, contract: ContractTerms, entryPrice: Decimal | null, stopPrice: Decimal | null, targetPrice: Decimal | null): EntryPrices | Refusal {
  if (entryPrice === null) {
    if (stopPrice !== null || targetPrice !== null) {
      return refuse('no_entry_price', 'The alert has a stop or target but no entry price, so neither can be checked against the entry or sized.')
    }
    return { entry: null, stop: null }
  }
  const direction = alert.side === 'LONG' ? 1 : -1
  if (stopPrice !== null && compare(entryPrice, stopPrice) !== direction) {
    return refuse('stop_on_wrong_side', `The stop ${plain(stopPrice)} must be ${direction === 1 ? 'below' : 'above'} the ${alert.side} entry ${plain(entryPrice)}.`)
  }
  if (targetPrice !== null && compare(targetPrice, entryPrice) !== direction) {
    return refuse('target_on_wrong_side', `The target ${plain(targetPrice)} must be ${direction === 1 ? 'above' : 'below'} the ${alert.side} entry ${plain(entryPrice)}.`)
  }
  if (stopPrice === null) return { entry: entryPrice, stop: null }
  const points = roundUpToTicks(absolute(subtract(entryPrice, stopPrice)), decimal(contract.tickSize))
  return { entry: entryPrice, stop: { price: stopPrice, points, riskPerContract: multiply(points, decimal(contract.pointValue)) } }
}

function roundUpToTicks(points: Decimal, tick: Decimal): Decimal {
  const ticks = -floorDivide(negate(points), tick)
  return multiply({ units: ticks, scale: 0 }, tick)
}
