import type { EntryOrder, EntryOrderType, TimeInForce } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import { canonicalName, type Fields } from './fields.ts'
import { priceValue, textValue } from './values.ts'

/** Order type names (TradersPost `orderType`; PickMyTrade `order_type` MKT, LMT, STP, STPLMT), after `canonicalName`. */
const ORDER_TYPES: ReadonlyMap<string, EntryOrderType> = new Map(
  Object.entries({
    market: 'market', mkt: 'market',
    limit: 'limit', lmt: 'limit',
    stop: 'stop', stp: 'stop', stopmarket: 'stop',
    stoplimit: 'stop_limit', stplmt: 'stop_limit',
  } satisfies Record<string, EntryOrderType>),
)

/** Tradovate's times in force the connector sends; GTD needs a date no alert format carries. */
const TIMES_IN_FORCE: ReadonlyMap<string, TimeInForce> = new Map(
  Object.entries({ day: 'Day', gtc: 'GTC', goodtillcancel: 'GTC', goodtilcanceled: 'GTC', ioc: 'IOC', immediateorcancel: 'IOC', fok: 'FOK', fillorkill: 'FOK' } satisfies Record<string, TimeInForce>),
)

const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * The entry order's type, trigger and time in force, or null for a market or limit entry without a time
 * in force (published as before). A stop entry triggers at `entry_stop_price` (ours) or
 * `stopPrice` (TradersPost), else at the entry price; a stop-limit needs both: the trigger, and the limit as the entry price.
 * Refused (400) rather than guessed: an unknown type or time in force, a stop entry without a trigger.
 */
export function entryOrderOf(fields: Fields, entryPrice: number | null): EntryOrder | null {
  const typeText = textValue(fields.orderType)
  const tifText = textValue(fields.timeInForce)
  const type = typeText === null ? null : ORDER_TYPES.get(canonicalName(typeText))
  if (type === undefined) throw invalid(`orderType "${(typeText ?? '').slice(0, 40)}" is not supported (expected market, limit, stop or stop_limit)`)
  const timeInForce = tifText === null ? null : TIMES_IN_FORCE.get(canonicalName(tifText))
  if (timeInForce === undefined) throw invalid(`timeInForce "${(tifText ?? '').slice(0, 40)}" is not supported (expected day, gtc, ioc or fok)`)
  const limitTimeoutSeconds = limitTimeoutOf(fields, type, entryPrice)
  if (limitTimeoutSeconds !== null) return { type: 'limit', stopPrice: null, timeInForce, limitTimeoutSeconds }
  // A market entry without a time in force is published as before; a limit always says so, as ingest read it
  // (the connector cannot find every spelling of the field in the raw payload).
  if ((type === null || type === 'market') && timeInForce === null) return null
  const trigger = triggerOf(fields, type === 'stop' || type === 'stop_limit')
  if (type === 'stop') {
    const stopPrice = trigger ?? entryPrice
    if (stopPrice === null) throw invalid('A stop entry needs its trigger: send entry_stop_price or price')
    return { type, stopPrice, timeInForce }
  }
  if (type === 'stop_limit') {
    if (trigger === null || entryPrice === null) throw invalid('A stop-limit entry needs its trigger (entry_stop_price) and its limit (price)')
    return { type, stopPrice: trigger, timeInForce }
  }
  return { type: type ?? 'market', stopPrice: null, timeInForce }
}

/** `entry_stop_price`, else on a stop or stop-limit entry a top-level `stopPrice` (TradersPost's trigger). */
function triggerOf(fields: Fields, stopEntry: boolean): number | null {
  const value = fields.entryStop ?? (stopEntry ? fields.stopPrice : undefined)
  if (value === undefined) return null
  const price = priceValue(value)
  if (price === null || price <= 0) throw invalid('the entry\'s trigger (entry_stop_price, stopPrice) must be a price above 0')
  return price
}

/**
 * `limit_timeout`: whole seconds after which a limit entry not filled is cancelled (0 or absent: none). Refused
 * on any other entry (a market or stop entry has nothing to time out) and on a limit without its price
 * (placed at the market, as before), rather than ignored.
 */
function limitTimeoutOf(fields: Fields, type: EntryOrderType | null, entryPrice: number | null): number | null {
  const value = fields.limitTimeout
  if (value === undefined || value === null || value === '') return null
  const seconds = priceValue(value)
  if (seconds === null || !Number.isInteger(seconds) || seconds < 0 || seconds > 86_400) throw invalid('limit_timeout must be whole seconds from 0 to 86400')
  if (seconds === 0) return null
  if (type !== 'limit') throw invalid('limit_timeout applies to a limit entry only: send order_type limit with a price')
  if (entryPrice === null) throw invalid('limit_timeout needs the limit entry\'s price')
  return seconds
}
