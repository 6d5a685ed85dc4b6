import type { AlertKind, NormalizedAlert, SignalSourceKey } from '@signals/contracts'
import { rootOf } from '@signals/instruments'
import { alertIdOf } from '../alert-id.ts'
import { Refusal } from '../refusal.ts'
import { bracketPrice, type BracketContext } from './brackets.ts'
import { mergeFields, type Fields } from './fields.ts'
import { resolveIntent, type Intent } from './intent.ts'
import { instructionOf, needsSymbol } from './order-instructions.ts'
import { entryOrderOf } from './entry-order.ts'
import { exitPlanOf } from './exit-plan.ts'
import { trailingStopOf } from './trailing-stop.ts'
import { strategyPositionOf } from './strategy-position.ts'
import type { ParsedAlert } from './parse-alert.ts'
import { describeJsonSyntaxError } from './json-syntax-error.ts'
import { refusePlaceholders } from './placeholders.ts'
import { quantityOf } from './quantity.ts'
import { refuseUnsupportedEntry } from './unsupported.ts'
import { booleanValue, priceValue, textValue } from './values.ts'

export interface NormalizeOptions {
  /** PREMIUM_INDICATORS, lower-cased. */
  premiumIndicators: ReadonlySet<string>
  receivedAt: string
  /** The text the alert was read from: its hash is the id of an alert that names none. */
  sourceText: string
  /** Removes secrets from what `raw` keeps of the parsed payload; kept as parsed without one. */
  redactor?: { value(raw: unknown): unknown }
  /** The signal source the alert came through (`/webhook/s/<token>`); absent on the spec's route. */
  source?: SignalSourceKey
}

const MAX_LENGTH = { symbol: 64, indicator: 255, userId: 255 } as const
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * Maps parsed fields to the contract and routes the alert: the test handler for a premium indicator or
 * `isVendorTest`, the result handler for an exit (a `result` field, an exit word, a flat position after
 * the order: see resolveIntent), the entry handler otherwise. Refuses (400) what no handler could use or
 * what would be a guess: JSON that does not parse (and names no user elsewhere), unexpanded placeholders, contradictory or ambiguous sides, an entry without
 * user_id, a relative bracket without a price, a result that names no symbol, text longer than kept.
 */
export function normalizeAlert(parsed: ParsedAlert, fallback: Fields, options: NormalizeOptions): NormalizedAlert {
  const fields = mergeFields(fallback, parsed.fields)
  const source = options.source
  // Broken JSON with no user named elsewhere (`?user_id=`, a trader's source URL) can only be refused: say what
  // broke, not that user_id is missing (the sender wrote one). With a user, intake rule 10 keeps it as a _raw record.
  if (parsed.jsonError !== undefined && fields.userId === undefined && !source?.ownerUserId) throw new Refusal(400, 'invalid', describeJsonSyntaxError(parsed.jsonError))
  refusePlaceholders(fields, parsed)
  const symbol = boundedText(fields.symbol, 'symbol')
  const indicator = boundedText(fields.indicator, 'indicator')
  const userId = userOf(boundedText(fields.userId, 'user_id'), source)
  const sentPrice = priceValue(fields.entryPrice) ?? priceValue(fields.price)
  // An alert managing what is at the broker (modify, cancel, flatten everything, kill switch) goes the
  // entries' way (one locked record per trader) with its instruction; it is no entry and no exit.
  const managing = instructionOf(fields)
  const intent: Intent = managing === null ? resolveIntent(fields) : { kind: 'entry', side: managing.side, reversal: false }

  const premium = indicator !== null && options.premiumIndicators.has(indicator.toLowerCase())
  const isVendorTest = premium || booleanValue(fields.isVendorTest)
  const kind: AlertKind = isVendorTest ? 'test' : intent.kind
  if (intent.kind === 'entry' && managing === null) refuseUnsupportedEntry(fields)
  if (kind === 'entry' && userId === null && source === undefined) throw new Refusal(400, 'missing_user_id', 'user_id required')
  if (managing !== null && needsSymbol(managing.instruction) && symbol === null) throw new Refusal(400, 'invalid', `symbol required: a ${managing.instruction.kind} reaches the open trades of one symbol`)
  const entryOrder = intent.kind === 'entry' && managing === null ? entryOrderOf(fields, sentPrice) : null
  const strategyPosition = intent.kind === 'entry' && managing === null ? strategyPositionOf(fields) : null
  // A stop or stop-limit entry's top-level `stopPrice` is its trigger (TradersPost), not its stop loss.
  const stopEntry = entryOrder?.type === 'stop' || entryOrder?.type === 'stop_limit'
  if (kind === 'result' && symbol === null) throw new Refusal(400, 'invalid', 'symbol required for a result alert')
  const result = intent.kind === 'result' ? intent.result : null
  // A stop entry fills about its trigger: that is its entry price (the base of relative brackets, and of sizing).
  const entryPrice = entryOrder?.type === 'stop' ? entryOrder.stopPrice : sentPrice
  const brackets: BracketContext = { side: intent.kind === 'entry' ? intent.side : null, entryPrice }
  const quantity = quantityOf(fields, intent)
  // Several targets and breakeven after TP1 (issue 24, item 4): an entry's only; results and instructions place no targets.
  const exitPlan = intent.kind === 'entry' && managing === null && !isVendorTest ? exitPlanOf(fields, { side: intent.side, entryPrice, quantity }) : null
  const trailingStop = intent.kind === 'entry' && managing === null && !isVendorTest ? trailingStopOf(fields, { side: intent.side, entryPrice }) : null

  // One object literal with every field, in the contract's order: built by spreading, the alert was a
  // slow-mode object that cost several times more to validate and serialize (docs/benchmarks/ingest.md).
  return {
    version: 1,
    alertId: alertIdOf(fields.alertId, options.sourceText, userId, source?.sourceId),
    kind,
    receivedAt: options.receivedAt,
    action: intent.kind === 'entry' ? intent.side : intent.orderSide,
    symbol,
    root: symbol === null ? null : rootOf(symbol),
    entryPrice,
    sl: bracketPrice(fields.sl ?? (stopEntry ? undefined : fields.stopPrice), 'stopLoss', brackets),
    tp: bracketPrice(fields.tp, 'takeProfit', brackets),
    exitPrice: result === null ? null : (priceValue(fields.exitPrice) ?? priceValue(fields.price) ?? entryPrice),
    indicator,
    userId,
    leverage: priceValue(fields.leverage),
    quantity,
    result,
    closes: intent.kind === 'result' ? intent.closes : null,
    isVendorTest,
    parseFailed: parsed.parseFailed,
    raw: options.redactor ? options.redactor.value(parsed.raw) : parsed.raw,
    orderWord: intent.kind === 'entry' ? (intent.word ?? null) : null,
    closePart: intent.kind === 'result' ? (intent.part ?? null) : null,
    ...(managing === null ? {} : { instruction: managing.instruction }),
    ...(entryOrder === null ? {} : { entryOrder }),
    ...(strategyPosition === null ? {} : { strategyPosition }),
    ...(source === undefined ? {} : { sourceId: source.sourceId }),
    ...(exitPlan === null ? {} : { exitPlan }),
    ...(trailingStop === null ? {} : { trailingStop }),
  }
}

/**
 * The alert's user: on a trader's source its owner (the payload need not name one, and naming another
 * trader is refused: a source reaches its owner only); on an operator source or the spec's route, the one
 * the payload names, if any.
 */
function userOf(named: string | null, source: SignalSourceKey | undefined): string | null {
  const owner = source?.ownerUserId ?? null
  if (owner === null) return named
  if (named !== null && named !== owner) throw new Refusal(403, 'forbidden', "user_id names another trader: a trader's signal source delivers to its owner only (leave user_id out)")
  return owner
}

function boundedText(value: unknown, name: keyof typeof MAX_LENGTH | 'user_id'): string | null {
  const text = textValue(value)
  const limit = name === 'user_id' ? MAX_LENGTH.userId : MAX_LENGTH[name]
  if (text === null) return null
  if (text.length > limit) throw new Refusal(400, 'invalid', `${name} is longer than ${limit} characters`)
  // These become columns and query parameters: Postgres refuses a NUL, and no symbol or user holds one.
  if (CONTROL_CHARACTER.test(text)) throw new Refusal(400, 'invalid', `${name} holds a control character`)
  if (LONE_SURROGATE.test(text)) throw new Refusal(400, 'invalid', `${name} holds half a surrogate pair`)
  return text
}
