import t from 'tap'
import { parseAlert } from '../../src/parsing/parse-alert.ts'
import { parseLabelLines } from '../../src/parsing/label-lines.ts'
import { extractFields } from '../../src/parsing/fields.ts'

t.test('label lines: case-insensitive labels and their common variants', async (t) => {
  const text = 'ACTION: buy\nticker: NQ1!\nEntry: 1\nstop loss: 2\nTake Profit: 3\nuser_id: u\nLEVERAGE: 4\nResult: TP\nIndicator: X'
  t.same(extractFields(parseLabelLines(text) ?? {}), { action: 'buy', symbol: 'NQ1!', entryPrice: '1', sl: '2', tp: '3', userId: 'u', leverage: '4', result: 'TP', indicator: 'X' })
  t.same(parseLabelLines('Symbol: CME_MINI:NQ1!'), { Symbol: 'CME_MINI:NQ1!' }, 'only the first colon separates')
  t.equal(parseLabelLines('hello world\nno labels here: at all'), null, 'no known label: not an alert')
  t.same(parseLabelLines('Side = Sell\r\n\r\n  User ID :  u7  '), { Side: 'Sell', 'User ID': 'u7' })
})

t.test('the most specific name wins when a payload carries several', async (t) => {
  t.same(extractFields({ price: 1, entry: 2, entryPrice: 3 }), { price: 1, entryPrice: 3 })
  t.same(extractFields({ id: 'a', alert_id: 'b' }), { alertId: 'b' })
  t.same(extractFields({ user: 'x', userId: 'y' }), { userId: 'y' })
})

t.test('JSON forms, message extraction and failures', async (t) => {
  t.match(parseAlert('{"action":"buy","user_id":"u"}'), { parseFailed: false, fields: { action: 'buy', userId: 'u' }, raw: { action: 'buy' } })
  t.match(parseAlert(JSON.stringify(JSON.stringify({ action: 'sell' }))), { parseFailed: false, fields: { action: 'sell' } }, 'a JSON string holding JSON')
  t.match(parseAlert(JSON.stringify('Action: Buy\nUser ID: u')), { fields: { action: 'Buy', userId: 'u' } }, 'a JSON string holding label lines')
  t.match(parseAlert('{"message":"{\\"action\\":\\"buy\\"}","user_id":"outer","action":"sell"}'), { fields: { action: 'buy', userId: 'outer' } }, 'message wins over the fields around it')
  t.match(parseAlert('action=buy&user_id=u', { form: true }), { fields: { action: 'buy', userId: 'u' } })
  t.match(parseAlert('action=buy&user_id=u'), { parseFailed: false, fields: { action: 'buy&user_id=u' } }, 'form fields only for form bodies: read as one label line')
  for (const text of ['[1,2,3]', '42', '{"foo":1}', '', 'just words', '{"message":"not an alert"}']) {
    t.same(parseAlert(text), { fields: {}, raw: { _raw: true, text }, parseFailed: true, secrets: [] }, `${JSON.stringify(text)} is kept whole`)
  }
  t.same(
    parseAlert('{broken'),
    { fields: {}, raw: { _raw: true, text: '{broken' }, parseFailed: true, secrets: [], jsonError: { what: 'expected a property name in double quotes', line: 1, column: 2 } },
    'broken JSON is kept whole too, with where it broke',
  )
  t.throws(() => parseAlert(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`), /nested deeper/)
  t.throws(() => parseAlert(`{"a":${'['.repeat(32)}${']'.repeat(32)},"user_id":"u"}`), /nested deeper/, 'one level past the limit')
  t.match(parseAlert(`{"a":${'['.repeat(31)}${']'.repeat(31)},"user_id":"u"}`), { fields: { userId: 'u' } }, 'exactly at the limit')
  t.match(parseAlert(`{"note":"${'[{'.repeat(40)}","user_id":"u"}`), { fields: { userId: 'u' } }, 'brackets inside a string are not nesting')
  t.same(parseAlert('{"__proto__":{"polluted":true},"user_id":"u"}').fields, { userId: 'u' })
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution')
  t.same(parseAlert('{"passphrase":"p1","message":{"secret":"p2","action":"buy"}}').secrets, ['p1', 'p2'])
})

t.test('platform names, 3Commas containers, and every value of an intent field kept', async (t) => {
  t.same(extractFields({ tv_instrument: 'NQ1!', trigger_price: '1', data: 'buy', max_lag: '300', qty: 2 }), { symbol: 'NQ1!', price: '1', action: 'buy', maxLag: '300', quantity: 2 })
  t.same(
    extractFields({ action: 'sell', strategy_info: { market_position: 'flat', prev_market_position: 'long' }, order: { amount: '1', currency_type: 'base' } }),
    { marketPosition: 'flat', prevMarketPosition: 'long', quantity: '1', quantityUnit: 'base', action: 'sell' },
  )
  t.same(extractFields({ order: 'buy' }), { action: 'buy' }, '`order` as text is a side')
  t.same(extractFields({ action: 'buy', side: 'exit', data: 'sell' }), { action: 'buy', shadowed: { action: ['exit', 'sell'] } })
  t.same(extractFields({ side: 'exit', action: 'buy' }), { action: 'buy', shadowed: { action: ['exit'] } }, 'the better name wins, the other is kept')
  t.match(parseAlert('{"action":"buy","message":"{\\"action\\":\\"exit\\"}"}').fields, { action: 'exit', shadowed: { action: ['buy'] } })
  t.same(parseLabelLines('Action: buy\nAction: exit\nAction: sell'), { Action: 'buy', 'Action #': 'exit', 'Action $': 'sell' }, 'repeated labels are kept')
  t.match(parseAlert('action=buy&action=exit&user_id=u', { form: true }).fields, { action: 'buy', shadowed: { action: ['exit'] } })
  t.match(parseAlert('{"ticker": "AAPL", "action": "exit",}'), { parseFailed: false, fields: { symbol: 'AAPL', action: 'exit' } }, 'a trailing comma is forgiven')
})
