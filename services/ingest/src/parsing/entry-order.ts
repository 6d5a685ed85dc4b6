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
  const timeout = limitTimeoutOf(fields, type, entryPrice)
  if (timeout !== null) return { type: 'limit', stopPrice: null, timeInForce, ...timeout }
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
 * `limit_timeout`: whole seconds after which a limit entry not filled is cancelled (0 or absent: none), or
 * sent at the market for its remainder with `limit_timeout_action: market`; PickMyTrade's
 * `lmt_to_market_wait: N` is the same as `limit_timeout: N` with the market. Refused on any other entry (a
 * market or stop entry has nothing to time out), on a limit without its price (placed at the market, as
 * before), and on an action without a timeout or two timeouts that disagree, rather than guessed.
 */
function limitTimeoutOf(fields: Fields, type: EntryOrderType | null, entryPrice: number | null): Pick<EntryOrder, 'limitTimeoutSeconds' | 'limitTimeoutAction'> | null {
  const own = secondsOf(fields.limitTimeout, 'limit_timeout')
  const pickMyTrade = secondsOf(fields.limitToMarketWait, 'lmt_to_market_wait')
  const action = timeoutActionOf(fields.limitTimeoutAction)
  if (pickMyTrade !== null && own !== null && pickMyTrade !== own) throw invalid('limit_timeout and lmt_to_market_wait disagree: send one of them')
  if (pickMyTrade !== null && action === 'cancel') throw invalid('lmt_to_market_wait sends the limit entry at the market after N seconds: it cannot go with limit_timeout_action cancel (send limit_timeout instead)')
  const seconds = own ?? pickMyTrade
  const name = own !== null ? 'limit_timeout' : 'lmt_to_market_wait'
  if (seconds === null) {
    if (action !== null) throw invalid('limit_timeout_action needs limit_timeout (whole seconds above 0) on a limit entry')
    return null
  }
  if (type !== 'limit') throw invalid(`${name} applies to a limit entry only: send order_type limit with a price`)
  if (entryPrice === null) throw invalid(`${name} needs the limit entry's price`)
  const chosen = pickMyTrade !== null ? 'market' : action
  return chosen === null ? { limitTimeoutSeconds: seconds } : { limitTimeoutSeconds: seconds, limitTimeoutAction: chosen }
}

/** Whole seconds from 1 to 86400, null when absent or 0 (none). */
function secondsOf(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const seconds = priceValue(value)
  if (seconds === null || !Number.isInteger(seconds) || seconds < 0 || seconds > 86_400) throw invalid(`${name} must be whole seconds from 0 to 86400`)
  return seconds === 0 ? null : seconds
}

/** `limit_timeout_action`: cancel or market (also `market_order`, `convert`), else a 400. */
function timeoutActionOf(value: unknown): 'cancel' | 'market' | null {
  if (value === undefined || value === null || value === '') return null
  const text = textValue(value)
  const name = text === null ? null : canonicalName(text)
  if (name === 'cancel') return 'cancel'
  if (name === 'market' || name === 'marketorder' || name === 'mkt') return 'market'
  throw invalid(`limit_timeout_action "${String(text ?? value).slice(0, 40)}" is not supported (expected cancel or market)`)
}
