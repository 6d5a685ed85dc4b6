import { carriesAlertData, extractFields, mergeFields, type Fields } from './fields.ts'
import { cannotNestTooDeep, isPlainObject, jsonDepth, MAX_JSON_DEPTH, tryParseJson } from './json.ts'
import { parseLabelLines, RepeatedNames } from './label-lines.ts'
import { jsonSyntaxErrorOf, type JsonSyntaxError } from './json-syntax-error.ts'

export interface ParsedAlert {
  /** Known fields, a `message` field's contents taking precedence over the fields around it. */
  fields: Fields
  /** The payload as parsed, or `{ _raw: true, text }` when it could not be. */
  raw: unknown
  /** Nothing in the text named an alert field. */
  parseFailed: boolean
  /** Every value sent as `secret`/`passphrase`, at any level (checked, then redacted). */
  secrets: string[]
  /** Set when parsing failed and the text looked like JSON (`{` or `[` first) but did not parse: where. */
  jsonError?: JsonSyntaxError
}

export class UnparseableAlertError extends Error {}

/** How many times a JSON string or `message` field may wrap another one. */
const MAX_WRAPPING = 4

interface ParseOptions {
  /** The body came as `application/x-www-form-urlencoded`. */
  form?: boolean
}

/**
 * Parses an alert's text in the forms senders use: a JSON object; a JSON string holding one (or holding
 * label lines); form fields; plain `Label: value` lines. A `message` field (string or object) is extracted
 * and parsed in turn. Never throws for bad input except for JSON nested deeper than we keep.
 */
export function parseAlert(text: string, options: ParseOptions = {}): ParsedAlert {
  const secrets: string[] = []
  const record = parseRecord(text, options.form === true, 0)
  if (record === null) return failed(text, secrets)
  const fields = unwrapMessage(record, secrets, 0)
  if (!carriesAlertData(fields)) return failed(text, secrets)
  return { fields, raw: record, parseFailed: false, secrets }
}

function failed(text: string, secrets: string[]): ParsedAlert {
  const result: ParsedAlert = { fields: {}, raw: { _raw: true, text }, parseFailed: true, secrets }
  const jsonError = syntaxErrorOf(text)
  if (jsonError !== undefined) result.jsonError = jsonError
  return result
}

/** Why the sender's text, if it looks like JSON (`{` or `[` first), does not parse, placed in the text as sent. */
function syntaxErrorOf(text: string): JsonSyntaxError | undefined {
  const first = text.trimStart()[0]
  if (first !== '{' && first !== '[') return undefined
  return jsonSyntaxErrorOf(text, first === '{')
}

/** The record a text holds, or null when it holds none. */
function parseRecord(text: string, form: boolean, wrapping: number): Record<string, unknown> | null {
  const trimmed = text.trim()
  const first = trimmed[0]
  if (first === '{' || first === '"' || first === '[') {
    const parsed = tryParseJson(trimmed) ?? (first === '{' ? tryParseJson(withoutTrailingCommas(trimmed)) : undefined)
    if (parsed !== undefined) {
      if (!cannotNestTooDeep(trimmed) && jsonDepth(parsed) > MAX_JSON_DEPTH) {
        throw new UnparseableAlertError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`)
      }
      if (typeof parsed === 'string') return wrapping < MAX_WRAPPING ? parseRecord(parsed, false, wrapping + 1) : null
      return isPlainObject(parsed) ? parsed : null
    }
  }
  if (form && !/[\r\n]/.test(trimmed) && trimmed.includes('=')) {
    const formRecord: Record<string, string> = {}
    const names = new RepeatedNames()
    for (const [name, value] of new URLSearchParams(trimmed)) formRecord[names.key(name)] = value
    if (carriesAlertData(extractFields(formRecord))) return formRecord
  }
  return parseLabelLines(trimmed)
}

/**
 * The text with commas before a closing bracket removed: documented alert templates carry them
 * (TradersPost's `{"ticker": "AAPL", "action": "exit",}`) and TradingView sends them as written. Tried only
 * after strict parsing failed, so valid JSON never pays for it.
 */
function withoutTrailingCommas(text: string): string {
  return text.replace(/,(\s*[}\]])/g, '$1')
}

/** A `message` field holding the alert is extracted; the fields around it fill what it lacks. */
function unwrapMessage(record: Record<string, unknown>, secrets: string[], wrapping: number): Fields {
  const fields = extractFields(record)
  if (typeof fields.secret === 'string' || typeof fields.secret === 'number') secrets.push(String(fields.secret))
  const message = fields.message
  delete fields.message
  if (wrapping >= MAX_WRAPPING) return fields
  let inner: Record<string, unknown> | null = null
  if (typeof message === 'string') inner = parseRecord(message, false, wrapping + 1)
  else if (isPlainObject(message)) inner = message
  if (inner === null) return fields
  return mergeFields(fields, unwrapMessage(inner, secrets, wrapping + 1))
}
