import type { Side } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import { canonicalName } from './fields.ts'
import { isPlainObject } from './json.ts'
import { priceValue, textValue } from './values.ts'

export type BracketName = 'stopLoss' | 'takeProfit'

/** Where an entry's bracket goes, relative forms worked out from the entry price. */
export interface BracketContext {
  /** The entry's side; null on a result or test alert, whose brackets place nothing. */
  side: Side | null
  entryPrice: number | null
}

const invalid = (message: string) => new Refusal(400, 'invalid', message)
/** Prices are stored with 8 decimals; rounding there drops float noise (143.12 * 0.95 = 135.96399999999997). */
const toStoredPrecision = (price: number) => Math.round(price * 1e8) / 1e8

/**
 * A stop loss or take profit as a price. A number (or decimal text) is the price; 0 or less means none
 * (PickMyTrade sends `"sl": 0` for "no stop"). A TradersPost object gives an absolute price
 * (`stopLoss.stopPrice`, `takeProfit.limitPrice`) or one relative to the entry price (`amount` in price
 * units, `percent`); a relative bracket on an entry without a price is refused, not guessed.
 */
export function bracketPrice(value: unknown, name: BracketName, context: BracketContext): number | null {
  if (!isPlainObject(value)) {
    const price = priceValue(value)
    return price === null || price <= 0 ? null : price
  }
  const parts = bracketParts(value, name)
  if (parts.absolute !== null) return parts.absolute
  if (parts.relative === null || context.side === null) return null
  const { amount, percent } = parts.relative
  if (context.entryPrice === null) {
    throw invalid(`${name}.${amount === null ? 'percent' : 'amount'} is relative to the entry price, and the alert carries no price (price, signalPrice, limitPrice): the ${name === 'stopLoss' ? 'stop' : 'target'} cannot be placed. Send a price or ${name}.${name === 'stopLoss' ? 'stopPrice' : 'limitPrice'}`)
  }
  const distance = amount ?? (context.entryPrice * (percent as number)) / 100
  const below = (name === 'stopLoss') === (context.side === 'LONG')
  const price = toStoredPrecision(below ? context.entryPrice - distance : context.entryPrice + distance)
  if (price <= 0) throw invalid(`${name} works out at ${price}, below zero; send a smaller amount or percent`)
  return price
}

interface BracketParts {
  absolute: number | null
  relative: { amount: number | null; percent: number | null } | null
}

function bracketParts(object: Record<string, unknown>, name: BracketName): BracketParts {
  const read: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(object)) read[canonicalName(key)] = value
  const type = textValue(read.type)
  if ((type !== null && canonicalName(type) === 'trailingstop') || read.trailamount !== undefined || read.trailpercent !== undefined) {
    throw invalid(`${name}: trailing stops are not supported; send stopLoss.stopPrice, amount or percent`)
  }
  if (read.pnlamount !== undefined) throw invalid(`${name}.pnlAmount (a profit in dollars) is not supported; send ${name}.limitPrice, amount or percent`)
  const absoluteName = name === 'stopLoss' ? 'stopprice' : 'limitprice'
  const given = [absoluteName, 'amount', 'percent'].filter((key) => read[key] !== undefined && read[key] !== null && read[key] !== '')
  if (given.length > 1) throw invalid(`${name} gives both ${given.join(' and ')}; send one`)
  const absolute = positive(read[absoluteName], `${name}.${name === 'stopLoss' ? 'stopPrice' : 'limitPrice'}`)
  const amount = positive(read.amount, `${name}.amount`)
  const percent = positive(read.percent, `${name}.percent`)
  return { absolute, relative: amount === null && percent === null ? null : { amount, percent } }
}

function positive(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const number = priceValue(value)
  if (number === null || number <= 0) throw invalid(`${name} must be a positive number`)
  return number
}
