import type { AlertKind, NormalizedAlert } from '@signals/contracts'
import { rootOf } from '@signals/instruments'
import { alertIdOf } from '../alert-id.ts'
import { Refusal } from '../refusal.ts'
import type { Fields } from './fields.ts'
import type { ParsedAlert } from './parse-alert.ts'
import { booleanValue, priceValue, resultValue, sideValue, textValue } from './values.ts'

export interface NormalizeOptions {
  /** PREMIUM_INDICATORS, lower-cased. */
  premiumIndicators: ReadonlySet<string>
  receivedAt: string
  /** The text the alert was read from: its hash is the id of an alert that names none. */
  sourceText: string
  /** Removes secrets from what `raw` keeps of the parsed payload; kept as parsed without one. */
  redactor?: { value(raw: unknown): unknown }
}

const MAX_LENGTH = { symbol: 64, indicator: 255, userId: 255 } as const

/**
 * Maps parsed fields to the contract and routes the alert: the test handler for a premium indicator or
 * `isVendorTest`, the result handler for a `result` field, the entry handler otherwise. Refuses (400)
 * what no handler could use: an entry without user_id, a result that is not TP/SL/Exit or names no symbol,
 * text longer than the records keep.
 */
export function normalizeAlert(parsed: ParsedAlert, fallback: Fields, options: NormalizeOptions): NormalizedAlert {
  const fields: Fields = { ...fallback, ...parsed.fields }
  const symbol = boundedText(fields.symbol, 'symbol')
  const indicator = boundedText(fields.indicator, 'indicator')
  const userId = boundedText(fields.userId, 'user_id')
  const entryPrice = priceValue(fields.entryPrice) ?? priceValue(fields.price)

  const resultText = textValue(fields.result)
  const result = resultText === null ? null : resultValue(resultText)
  if (resultText !== null && result === null) {
    throw new Refusal(400, 'invalid', 'result must be TP, SL or Exit')
  }

  const premium = indicator !== null && options.premiumIndicators.has(indicator.toLowerCase())
  const isVendorTest = premium || booleanValue(fields.isVendorTest)
  const kind: AlertKind = isVendorTest ? 'test' : result !== null ? 'result' : 'entry'
  if (kind === 'entry' && userId === null) throw new Refusal(400, 'missing_user_id', 'user_id required')
  if (kind === 'result' && symbol === null) throw new Refusal(400, 'invalid', 'symbol required for a result alert')

  // One object literal with every field, in the contract's order: built by spreading, the alert was a
  // slow-mode object that cost several times more to validate and serialize (docs/benchmarks/ingest.md).
  return {
    version: 1,
    alertId: alertIdOf(fields.alertId, options.sourceText, userId),
    kind,
    receivedAt: options.receivedAt,
    action: sideValue(fields.action),
    symbol,
    root: symbol === null ? null : rootOf(symbol),
    entryPrice,
    sl: priceValue(fields.sl),
    tp: priceValue(fields.tp),
    exitPrice: result === null ? null : (priceValue(fields.exitPrice) ?? priceValue(fields.price) ?? entryPrice),
    indicator,
    userId,
    leverage: priceValue(fields.leverage),
    quantity: null,
    result,
    isVendorTest,
    parseFailed: parsed.parseFailed,
    raw: options.redactor ? options.redactor.value(parsed.raw) : parsed.raw,
  }
}

function boundedText(value: unknown, name: keyof typeof MAX_LENGTH | 'user_id'): string | null {
  const text = textValue(value)
  const limit = name === 'user_id' ? MAX_LENGTH.userId : MAX_LENGTH[name]
  if (text !== null && text.length > limit) throw new Refusal(400, 'invalid', `${name} is longer than ${limit} characters`)
  return text
}
