import type { AlertResult, Side } from '@signals/contracts'
import { canonicalName } from './fields.ts'

const SIDES = new Map<string, Side>([['buy', 'LONG'], ['long', 'LONG'], ['sell', 'SHORT'], ['short', 'SHORT']])
// Maps, not objects: `constructor` must not find Object's own properties.
const RESULTS = new Map<string, AlertResult>([['tp', 'TP'], ['takeprofit', 'TP'], ['sl', 'SL'], ['stoploss', 'SL'], ['exit', 'Exit'], ['sessionend', 'Exit']])

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i
const THOUSANDS = /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/

/** Text as sent, trimmed; numbers become their decimal text; anything else (objects, blanks) is null. */
export function textValue(value: unknown): string | null {
  if (typeof value === 'string') {
    const trimmed = value.trim()
    return trimmed === '' ? null : trimmed
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value)
  return null
}

/** A finite number from a JSON number or a decimal text (`15000.25`, `15,000.25`, `1.5e3`); else null. */
export function priceValue(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value !== 'string') return null
  let text = value.trim()
  if (text.length > 64) return null
  if (THOUSANDS.test(text)) text = text.replaceAll(',', '')
  if (!DECIMAL.test(text)) return null
  const number = Number(text)
  return Number.isFinite(number) ? number : null
}

/** Buy/Long become LONG, Sell/Short become SHORT, in any case; anything else (a placeholder) is null. */
export function sideValue(value: unknown): Side | null {
  return typeof value === 'string' ? (SIDES.get(value.trim().toLowerCase()) ?? null) : null
}

/** TP, SL or Exit in any case and common spellings (`Take Profit`, `stop_loss`, `Session End`). */
export function resultValue(value: unknown): AlertResult | null {
  return typeof value === 'string' ? (RESULTS.get(canonicalName(value)) ?? null) : null
}

export function booleanValue(value: unknown): boolean {
  if (value === true || value === 1) return true
  return typeof value === 'string' && ['true', 'yes', '1'].includes(value.trim().toLowerCase())
}

/**
 * Milliseconds since the epoch of an alert's own timestamp: an ISO date-time (TradingView's `{{timenow}}`),
 * or epoch seconds or milliseconds. Null when it is none of these (an unexpanded placeholder).
 */
export function timestampValue(value: unknown): number | null {
  let number: number | null = null
  if (typeof value === 'number') number = value
  else if (typeof value === 'string' && /^\d{9,13}(\.\d+)?$/.test(value.trim())) number = Number(value.trim())
  if (number !== null) {
    if (!Number.isFinite(number) || number <= 0) return null
    return number < 1e11 ? number * 1000 : number
  }
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return null
  const parsed = Date.parse(value.trim())
  return Number.isNaN(parsed) ? null : parsed
}

/** TradingView placeholders that were not expanded (`{{ticker}}`) are kept as text but never used as ids. */
export function isPlaceholder(text: string): boolean {
  return text.includes('{{')
}
