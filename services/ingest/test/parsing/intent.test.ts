import t from 'tap'
import { Refusal } from '../../src/refusal.ts'
import { extractFields } from '../../src/parsing/fields.ts'
import { resolveIntent } from '../../src/parsing/intent.ts'

const intentOf = (record: Record<string, unknown>) => resolveIntent(extractFields(record))
const refusalOf = (record: Record<string, unknown>) => {
  try {
    resolveIntent(extractFields(record))
  } catch (error) {
    if (error instanceof Refusal) return { status: error.statusCode, outcome: error.outcome, message: error.message }
    throw error
  }
  return null
}

t.test('entry words give an entry on their side', async (t) => {
  for (const [word, side] of [['buy', 'LONG'], ['Long', 'LONG'], ['enter_long', 'LONG'], ['Buy To Open', 'LONG'], ['SELL', 'SHORT'], ['enter-short', 'SHORT'], ['bearish', 'SHORT']] as const) {
    t.same(intentOf({ action: word }), { kind: 'entry', side, reversal: false }, word)
  }
  t.same(intentOf({ ticker: 'NQ1!' }), { kind: 'entry', side: null, reversal: false }, 'no action: an entry without a side, as before')
})

t.test('exit words, a flat position after the order, and the side closed', async (t) => {
  const exit = (closes: string | null, orderSide: string | null = null, result = 'Exit') => ({ kind: 'result', result, closes, orderSide })
  t.same(intentOf({ action: 'exit' }), exit(null))
  t.same(intentOf({ action: 'Close' }), exit(null))
  t.same(intentOf({ action: 'exit_long' }), exit('LONG'))
  t.same(intentOf({ action: 'Exit Short' }), exit('SHORT'))
  t.same(intentOf({ action: 'buy_to_cover' }), exit('SHORT'))
  t.same(intentOf({ action: 'TP' }), exit(null, null, 'TP'))
  t.same(intentOf({ side: 'stop loss' }), exit(null, null, 'SL'))
  t.same(intentOf({ action: 'exit', prev_market_position: 'short' }), exit('SHORT'), 'the previous position says which side')
  t.same(intentOf({ action: 'sell', sentiment: 'flat' }), exit('LONG', 'SHORT'), 'TradersPost sell + flat closes the long')
  t.same(intentOf({ action: 'buy', sentiment: 'FLAT' }), exit('SHORT', 'LONG'))
  t.same(intentOf({ action: 'sell', market_position: 'flat', prev_market_position: 'long' }), exit('LONG', 'SHORT'))
  t.same(intentOf({ market_position: 'flat', prev_market_position: 'long' }), exit('LONG'), 'no action, position flat after')
  t.same(intentOf({ result: 'Session End', action: 'exit_short' }), exit('SHORT'), 'an explicit result keeps the side named')
})

t.test('strategy positions: entries and reversals', async (t) => {
  t.same(intentOf({ action: 'buy', market_position: 'long', prev_market_position: 'flat' }), { kind: 'entry', side: 'LONG', reversal: false })
  t.same(intentOf({ action: 'sell', market_position: 'short', prev_market_position: 'long' }), { kind: 'entry', side: 'SHORT', reversal: true, word: 'reverse' })
  t.same(intentOf({ strategy_info: { market_position: 'short', prev_market_position: 'long' } }), { kind: 'entry', side: 'SHORT', reversal: true, word: 'reverse' }, 'positions alone, in a 3Commas container')
})

t.test('ambiguous, contradictory and unknown alerts are refused with a 400 saying why', async (t) => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ action: 'exit', market_position: 'short', prev_market_position: 'long' }, /^Ambiguous alert: the action says an exit but the position after it is short \(an exit or a reversal\?\)/],
    [{ action: 'exit_long', sentiment: 'long' }, /^Ambiguous alert: the action says an exit of the long position but the position after it is long/],
    [{ action: 'buy', sentiment: 'short' }, /^buy with the position after it still short closes part of the position, but the alert says neither how much/],
    [{ action: 'exit_long', prev_market_position: 'short' }, /^Contradictory alert: the action says an exit of the long position but the previous position was short/],
    [{ action: 'buy', sentiment: 'flat', prev_market_position: 'long' }, /^Contradictory alert: buy leaving the position flat closes a short position, but the previous position was long/],
    [{ action: 'buy', side: 'exit' }, /^Contradictory alert: it says both "buy" and "exit"/],
    [{ action: 'buy', direction: 'short' }, /^Contradictory alert: it says both "buy" and "short"/],
    [{ action: 'exit_long', side: 'exit_short' }, /^Contradictory alert: it says both "exit_long" and "exit_short"/],
    [{ sentiment: 'long', market_position: 'flat' }, /^Contradictory alert: sentiment is long but market_position is flat/],
    [{ market_position: 'long', position: 'flat' }, /^Contradictory alert: market_position is both long and flat/],
    [{ market_position: 'long', prev_market_position: 'long' }, /^Ambiguous alert: no action, and the position is long before and after/],
    [{ action: 'hold' }, /^action "hold" is not understood/],
    [{ action: 'constructor' }, /^action "constructor" is not understood/],
    [{ action: ['exit'] }, /^action must be a word \(got a list\)/],
    [{ action: 'breakeven' }, /^action "breakeven": moving the stop to break-even is not supported/],
    [{ sentiment: 'maybe' }, /^sentiment "maybe" is not understood \(expected long, short or flat\)/],
    [{ result: 'maybe' }, /^result must be TP, SL or Exit$/],
    [{ result: 'TP', Result: 'SL' }, /^result must be TP, SL or Exit$/],
  ]
  for (const [record, message] of cases) {
    const refusal = refusalOf(record)
    t.match(refusal, { status: 400, outcome: 'invalid', message }, JSON.stringify(record))
  }
  t.same(intentOf({ action: 'buy', side: 'Long', data: 'BUY' }), { kind: 'entry', side: 'LONG', reversal: false }, 'names that agree are fine')
  t.same(intentOf({ action: 'exit', side: 'exit_long' }), { kind: 'result', result: 'Exit', closes: null, orderSide: null }, 'exit and exit_long agree')
})
