import t from 'tap'
import { Refusal } from '../../src/refusal.ts'
import { extractFields } from '../../src/parsing/fields.ts'
import { resolveIntent } from '../../src/parsing/intent.ts'

const intentOf = (record: Record<string, unknown>) => resolveIntent(extractFields(record))
const refusalOf = (record: Record<string, unknown>): string | null => {
  try {
    resolveIntent(extractFields(record))
  } catch (error) {
    if (error instanceof Refusal && error.statusCode === 400) return error.message
    throw error
  }
  return null
}

t.test('reverse: our word, CrossTrade REVERSE / FLATPLACE, PickMyTrade reverse_order_close, a strategy reversal', async (t) => {
  const reverse = (side: string | null) => ({ kind: 'entry', side, reversal: true, word: 'reverse' })
  t.same(intentOf({ action: 'reverse' }), reverse(null), 'no side: the connector reverses whatever is open')
  t.same(intentOf({ action: 'REVERSEPOSITION' }), reverse(null), 'CrossTrade')
  t.same(intentOf({ action: 'FlatPlace', sentiment: 'short' }), reverse('SHORT'), 'CrossTrade FLATPLACE, with the side after it')
  t.same(intentOf({ data: 'sell', reverse_order_close: true }), { kind: 'entry', side: 'SHORT', reversal: false, word: 'reverse' }, 'PickMyTrade')
  t.same(intentOf({ data: 'sell', reverse_order_close: false }), { kind: 'entry', side: 'SHORT', reversal: false }, 'PickMyTrade, off')
  t.same(intentOf({ action: 'buy', market_position: 'long', prev_market_position: 'short' }), { kind: 'entry', side: 'LONG', reversal: true, word: 'reverse' }, 'TradingView strategy')
  t.match(refusalOf({ action: 'reverse', market_position: 'flat' }), /^Contradictory alert: the action says reverse but the position after it is flat/)
  t.match(refusalOf({ action: 'reverse', market_position: 'long', prev_market_position: 'long' }), /^Contradictory alert: the action says reverse but the position is long before and after/)
})

t.test('add: TradersPost add and our names', async (t) => {
  t.same(intentOf({ action: 'add' }), { kind: 'entry', side: null, reversal: false, word: 'add' })
  t.same(intentOf({ action: 'Add To Position', sentiment: 'bullish' }), { kind: 'entry', side: 'LONG', reversal: false, word: 'add' })
  t.match(refusalOf({ action: 'add', sentiment: 'flat' }), /^Contradictory alert: the action says add but the position after it is flat/)
  t.match(refusalOf({ action: 'add', market_position: 'long', prev_market_position: 'short' }), /^Contradictory alert: the action says add but the position goes from short to long/)
  t.match(refusalOf({ action: 'add', side: 'reverse' }), /^Contradictory alert: it says both "add" and "reverse"/)
})

t.test('partial close: contracts, TradersPost percent_of_position, the strategy position size after it', async (t) => {
  const part = (closes: string, orderSide: string, quantity: number | null, percent: number | null, remaining: number | null) =>
    ({ kind: 'result', result: 'Exit', closes, orderSide, part: { quantity, percent, remaining } })
  t.same(intentOf({ action: 'sell', sentiment: 'long', quantity: 1 }), part('LONG', 'SHORT', 1, null, null), 'TradersPost sell + sentiment long')
  t.same(intentOf({ action: 'buy', sentiment: 'bearish', quantity: 50, quantityType: 'percent_of_position' }), part('SHORT', 'LONG', null, 50, null))
  t.same(intentOf({ action: 'exit', quantity: 25, quantityType: 'percent_of_position' }), { kind: 'result', result: 'Exit', closes: null, orderSide: null, part: { quantity: null, percent: 25, remaining: null } }, 'exit of a share')
  t.same(intentOf({ action: 'exit', quantity: 100, quantityType: 'percent_of_position' }), { kind: 'result', result: 'Exit', closes: null, orderSide: null }, '100%: the whole position')
  t.same(intentOf({ action: 'exit', quantity: 2 }), { kind: 'result', result: 'Exit', closes: null, orderSide: null }, 'an exit with contracts closes all, as before')
  t.same(
    intentOf({ 'strategy.order.action': 'sell', 'strategy.market_position': 'long', 'strategy.prev_market_position': 'long', 'strategy.market_position_size': '1' }),
    part('LONG', 'SHORT', null, null, 1),
    'TradingView strategy: the size after the order',
  )
  t.same(
    intentOf({ 'strategy.order.action': 'sell', 'strategy.order.contracts': '2', 'strategy.market_position': 'long', 'strategy.prev_market_position': 'long', 'strategy.market_position_size': '3' }),
    part('LONG', 'SHORT', null, 40, null),
    "TradingView strategy selling 2 of its 5: 40% of the account's position, whatever the account holds",
  )
  t.match(refusalOf({ action: 'sell', sentiment: 'long' }), /says neither how much/)
  t.match(refusalOf({ action: 'sell', sentiment: 'long', quantity: 150, quantityType: 'percent_of_position' }), /percentage above 0 and at most 100/)
  t.match(refusalOf({ action: 'sell', market_position: 'long', prev_market_position: 'short', quantity: 1 }), /^Contradictory alert: sell leaves a long position, but the previous position was short/)
})
