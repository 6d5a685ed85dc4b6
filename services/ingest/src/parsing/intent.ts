import type { AlertResult, ClosePart, OrderWord, Side } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import { canonicalName, valuesOf, type Fields } from './fields.ts'
import { asksToReverse, closePartOf, ORDER_WORDS, orderWordIntent, percentOfPosition } from './order-words.ts'
import { textValue } from './values.ts'

/** A Map, not an object: a word such as `constructor` must not find Object's own properties. */
function wordTable<T>(words: Readonly<Record<string, T>>): ReadonlyMap<string, T> {
  return new Map(Object.entries(words))
}

/** What one action word asks for. */
type Meaning =
  | { kind: 'entry'; side: Side }
  | { kind: 'exit'; result: AlertResult; closes: Side | null }
  | { kind: 'unsupported'; why: string }
  | { kind: 'word'; word: OrderWord }

const LONG: Meaning = { kind: 'entry', side: 'LONG' }
const SHORT: Meaning = { kind: 'entry', side: 'SHORT' }
const EXIT: Meaning = { kind: 'exit', result: 'Exit', closes: null }
const EXIT_LONG: Meaning = { kind: 'exit', result: 'Exit', closes: 'LONG' }
const EXIT_SHORT: Meaning = { kind: 'exit', result: 'Exit', closes: 'SHORT' }

/** Action words, compared after `canonicalName` (`Exit Long`, `exit_long` and `EXITLONG` are one word). */
const ACTION_WORDS: ReadonlyMap<string, Meaning> = wordTable({
  buy: LONG, long: LONG, enterlong: LONG, openlong: LONG, entrylong: LONG, longentry: LONG, buytoopen: LONG, bullish: LONG,
  sell: SHORT, short: SHORT, entershort: SHORT, openshort: SHORT, entryshort: SHORT, shortentry: SHORT, selltoopen: SHORT, sellshort: SHORT, bearish: SHORT,
  exit: EXIT, close: EXIT, flat: EXIT, flatten: EXIT, exitall: EXIT, closeall: EXIT, exitposition: EXIT, closeposition: EXIT, sessionend: EXIT,
  exitlong: EXIT_LONG, closelong: EXIT_LONG, longexit: EXIT_LONG, longclose: EXIT_LONG, selltoclose: EXIT_LONG,
  exitshort: EXIT_SHORT, closeshort: EXIT_SHORT, shortexit: EXIT_SHORT, shortclose: EXIT_SHORT, buytocover: EXIT_SHORT, buytoclose: EXIT_SHORT, cover: EXIT_SHORT,
  tp: { kind: 'exit', result: 'TP', closes: null },
  takeprofit: { kind: 'exit', result: 'TP', closes: null },
  sl: { kind: 'exit', result: 'SL', closes: null },
  stoploss: { kind: 'exit', result: 'SL', closes: null },
  breakeven: { kind: 'unsupported', why: 'moving the stop to break-even is not supported' },
  ...Object.fromEntries([...ORDER_WORDS].map(([word, meaning]) => [word, { kind: 'word', word: meaning } as const])),
})

type Position = Side | 'FLAT'
/** Position words (TradersPost `sentiment`, TradingView `{{strategy.market_position}}`). */
const POSITION_WORDS: ReadonlyMap<string, Position> = wordTable({
  long: 'LONG', bullish: 'LONG', buy: 'LONG',
  short: 'SHORT', bearish: 'SHORT', sell: 'SHORT',
  flat: 'FLAT', exit: 'FLAT', close: 'FLAT', closed: 'FLAT', none: 'FLAT', neutral: 'FLAT',
})

const RESULT_WORDS: ReadonlyMap<string, AlertResult> = wordTable({ tp: 'TP', takeprofit: 'TP', sl: 'SL', stoploss: 'SL', exit: 'Exit', sessionend: 'Exit' })

/** Where an alert goes: an entry on a side (or none), or a result that closes a position. */
export type Intent =
  | { kind: 'entry'; side: Side | null; reversal: boolean; word?: OrderWord | null }
  | { kind: 'result'; result: AlertResult; closes: Side | null; orderSide: Side | null; part?: ClosePart | null }

const opposite = (side: Side): Side => (side === 'LONG' ? 'SHORT' : 'LONG')
const invalid = (message: string) => new Refusal(400, 'invalid', message)

/**
 * Reads what an alert asks for from its action words, the position the sender says it leaves
 * (`sentiment`, `market_position`) and the one before (`prev_market_position`), and an explicit `result`.
 * An exit never becomes an entry: any exit word, or a flat position after the order, goes to the result
 * path; where the fields contradict each other or could mean an exit or a reversal, it refuses (400).
 */
export function resolveIntent(fields: Fields): Intent {
  const action = actionMeaning(fields)
  const after = positionAfter(fields)
  const before = positionOf(fields, 'prevMarketPosition', 'prev_market_position')
  const result = explicitResult(fields)
  if (result !== null) {
    const closes = action?.kind === 'exit' ? action.closes : before === 'FLAT' ? null : before
    return { kind: 'result', result, closes, orderSide: action?.kind === 'entry' ? action.side : null }
  }
  if (action?.kind === 'exit') return withPercent(exitIntent(action, after, before), fields)
  if (action?.kind === 'word') return orderWordIntent(action.word, after, before)
  if (action?.kind === 'entry') return sideIntent(action.side, after, before, fields)
  return positionOnlyIntent(after, before)
}

function exitIntent(action: Meaning & { kind: 'exit' }, after: Position | null, before: Position | null): Intent {
  const word = action.closes === null ? 'an exit' : `an exit of the ${action.closes.toLowerCase()} position`
  if (after === 'LONG' || after === 'SHORT') {
    throw invalid(`Ambiguous alert: the action says ${word} but the position after it is ${after.toLowerCase()} (an exit or a reversal?); refused rather than guessed`)
  }
  if (action.closes !== null && before !== null && before !== action.closes) {
    throw invalid(`Contradictory alert: the action says ${word} but the previous position was ${before.toLowerCase()}`)
  }
  const closes = action.closes ?? (before === 'FLAT' ? null : before)
  return { kind: 'result', result: action.result, closes, orderSide: null }
}

/** An exit word with `quantityType: percent_of_position` below 100 closes that share of the position (TradersPost). */
function withPercent(intent: Intent, fields: Fields): Intent {
  if (intent.kind !== 'result' || intent.result !== 'Exit') return intent
  const percent = percentOfPosition(fields)
  return percent === null || percent >= 100 ? intent : { ...intent, part: { quantity: null, percent, remaining: null } }
}

/**
 * buy/sell with the position it leaves: an entry (a reversal when the position before was the other side,
 * or PickMyTrade `reverse_order_close`), an exit of the opposite side (flat after it), or a partial close
 * (the same position after it: TradersPost `sell` with sentiment `long`, a strategy's partial exit).
 */
function sideIntent(side: Side, after: Position | null, before: Position | null, fields: Fields): Intent {
  const order = side === 'LONG' ? 'buy' : 'sell'
  if (after === 'FLAT') {
    const closes = opposite(side)
    if (before !== null && before !== closes) {
      throw invalid(`Contradictory alert: ${order} leaving the position flat closes a ${closes.toLowerCase()} position, but the previous position was ${before.toLowerCase()}`)
    }
    return { kind: 'result', result: 'Exit', closes, orderSide: side }
  }
  if (after !== null && after !== side) {
    if (before !== null && before !== after) {
      throw invalid(`Contradictory alert: ${order} leaves a ${after.toLowerCase()} position, but the previous position was ${before.toLowerCase()}`)
    }
    const part = closePartOf(fields, `${order} with the position after it still ${after.toLowerCase()}`)
    return { kind: 'result', result: 'Exit', closes: after, orderSide: side, part }
  }
  const reversal = before === opposite(side)
  return reversal || asksToReverse(fields) ? { kind: 'entry', side, reversal, word: 'reverse' } : { kind: 'entry', side, reversal }
}

/** No action word: the positions alone say what happened. */
function positionOnlyIntent(after: Position | null, before: Position | null): Intent {
  if (after === 'FLAT') return { kind: 'result', result: 'Exit', closes: before === 'FLAT' ? null : before, orderSide: null }
  if (after === null) return { kind: 'entry', side: null, reversal: false }
  if (before === after) throw invalid(`Ambiguous alert: no action, and the position is ${after.toLowerCase()} before and after; refused rather than guessed`)
  return before === opposite(after) ? { kind: 'entry', side: after, reversal: true, word: 'reverse' } : { kind: 'entry', side: after, reversal: false }
}

/** The action words sent (under every name); refuses unknown words and words that contradict each other. */
function actionMeaning(fields: Fields): Meaning | null {
  let chosen: Meaning | null = null
  let chosenWord = ''
  for (const value of valuesOf(fields, 'action')) {
    const word = wordOf(value, 'action')
    const meaning = ACTION_WORDS.get(word) ?? ACTION_WORDS.get(canonicalName(word))
    if (meaning === undefined) throw invalid(`action "${word.slice(0, 40)}" is not understood (expected buy, sell, long, short, exit, close, flat, enter_long, exit_long, …)`)
    if (meaning.kind === 'unsupported') throw invalid(`action "${word.slice(0, 40)}": ${meaning.why}`)
    if (chosen === null) {
      chosen = meaning
      chosenWord = word
    } else if (!sameMeaning(chosen, meaning)) {
      throw invalid(`Contradictory alert: it says both "${chosenWord.slice(0, 40)}" and "${word.slice(0, 40)}"`)
    }
  }
  return chosen
}

/** An intent value as a word; anything else (a list, an object, true) is refused, never skipped. */
function wordOf(value: unknown, name: string): string {
  const word = typeof value === 'boolean' ? null : textValue(value)
  if (word === null) throw invalid(`${name} must be a word (got ${Array.isArray(value) ? 'a list' : typeof value})`)
  return word
}

function sameMeaning(a: Meaning, b: Meaning): boolean {
  if (a.kind === 'word' && b.kind === 'word') return a.word === b.word
  if (a.kind === 'entry' && b.kind === 'entry') return a.side === b.side
  if (a.kind === 'exit' && b.kind === 'exit') return a.closes === null || b.closes === null || a.closes === b.closes
  return false
}

/** The position after the order: `sentiment` or `market_position` (refused when both are sent and differ). */
function positionAfter(fields: Fields): Position | null {
  const sentiment = positionOf(fields, 'sentiment', 'sentiment')
  const market = positionOf(fields, 'marketPosition', 'market_position')
  if (sentiment !== null && market !== null && sentiment !== market) {
    throw invalid(`Contradictory alert: sentiment is ${sentiment.toLowerCase()} but market_position is ${market.toLowerCase()}`)
  }
  return sentiment ?? market
}

/** The position a field names; every value sent for it must name the same one. */
function positionOf(fields: Fields, field: 'sentiment' | 'marketPosition' | 'prevMarketPosition', name: string): Position | null {
  let position: Position | null = null
  for (const value of valuesOf(fields, field)) {
    const word = wordOf(value, name)
    const named = POSITION_WORDS.get(word) ?? POSITION_WORDS.get(canonicalName(word))
    if (named === undefined) throw invalid(`${name} "${word.slice(0, 40)}" is not understood (expected long, short or flat)`)
    if (position !== null && named !== position) throw invalid(`Contradictory alert: ${name} is both ${position.toLowerCase()} and ${named.toLowerCase()}`)
    position = named
  }
  return position
}

function explicitResult(fields: Fields): AlertResult | null {
  let result: AlertResult | null = null
  for (const value of valuesOf(fields, 'result')) {
    const named = RESULT_WORDS.get(canonicalName(wordOf(value, 'result')))
    if (named === undefined || (result !== null && named !== result)) throw invalid('result must be TP, SL or Exit')
    result = named
  }
  return result
}
