import { Refusal } from '../refusal.ts'
import type { FieldName, Fields } from './fields.ts'
import { isPlainObject } from './json.ts'

/** Fields an unexpanded placeholder makes unusable: side, symbol, prices, user, size, staleness. */
const CHECKED: ReadonlySet<string> = new Set<FieldName>([
  'action', 'symbol', 'entryPrice', 'price', 'exitPrice', 'sl', 'tp', 'userId', 'quantity', 'positionSize',
  'sentiment', 'marketPosition', 'prevMarketPosition', 'result', 'maxLag',
  'stopPrice', 'entryStop', 'timeInForce', 'orderType', 'cancelOrders', 'updateSl', 'updateTp',
])

/**
 * Refuses (400) an alert that still holds a TradingView placeholder (`{{ticker}}`) in a field that matters:
 * TradingView sends the text as written when a placeholder does not apply (a strategy placeholder in an
 * indicator alert), and such an alert could never trade. The answer names the placeholder and the field.
 */
export function refusePlaceholders(fields: Fields, parsed: { raw: unknown; parseFailed: boolean }): void {
  const raw = parsed.raw
  if (parsed.parseFailed) {
    // Free text is kept whole, but not with a placeholder in it: that alert is misconfigured for sure.
    const text = isPlainObject(raw) && typeof raw.text === 'string' ? raw.text : ''
    const found = placeholderIn(text)
    if (found !== null) throw new Refusal(400, 'invalid', `Unexpanded placeholder ${found.placeholder} in the alert text: TradingView did not fill it in. Check the alert message`)
  }
  // Over the fields sent (a handful), not the fields checked: this runs for every alert.
  for (const field in fields) {
    if (!CHECKED.has(field)) continue
    const found = placeholderIn(fields[field as FieldName])
    if (found !== null) throw refusal(found, field as FieldName, raw)
  }
  if (fields.shadowed === undefined) return
  for (const [field, values] of Object.entries(fields.shadowed) as [FieldName, unknown[]][]) {
    for (const value of values) {
      const found = placeholderIn(value)
      if (found !== null) throw refusal(found, field, raw)
    }
  }
}

interface Found {
  text: string
  placeholder: string
}

function placeholderIn(value: unknown): Found | null {
  if (typeof value === 'string') {
    const start = value.indexOf('{{')
    if (start === -1) return null
    const end = value.indexOf('}}', start)
    return { text: value, placeholder: value.slice(start, end === -1 ? start + 40 : Math.min(end + 2, start + 80)) }
  }
  if (isPlainObject(value)) {
    for (const inner of Object.values(value)) {
      const found = placeholderIn(typeof inner === 'string' ? inner : null)
      if (found !== null) return found
    }
  }
  return null
}

function refusal(found: Found, field: FieldName, raw: unknown): Refusal {
  const sentAs = keyHolding(raw, found.text, 0)
  const where = sentAs === null || sentAs === field ? field : `${sentAs} (${field})`
  return new Refusal(400, 'invalid', `Unexpanded placeholder ${found.placeholder} in ${where}: TradingView did not fill it in, so the alert cannot be used. Check the alert message (strategy placeholders only work in strategy alerts)`)
}

/** The name the sender used for a value (searched only when refusing, so the hot path never pays for it). */
function keyHolding(record: unknown, text: string, depth: number): string | null {
  if (!isPlainObject(record) || depth > 3) return null
  for (const [key, value] of Object.entries(record)) {
    if (value === text) return key
    const inner = keyHolding(value, text, depth + 1)
    if (inner !== null) return `${key}.${inner}`
  }
  return null
}
