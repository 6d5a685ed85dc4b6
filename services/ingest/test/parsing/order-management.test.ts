import t from 'tap'
import { parseAlert } from '../../src/parsing/parse-alert.ts'
import { normalizeAlert } from '../../src/parsing/normalize.ts'

/** The alert as ingest publishes it (issue 24, items 5 and 6: docs/alert-formats.md, "Managing open trades"). */
const normalize = (payload: Record<string, unknown>) =>
  normalizeAlert(parseAlert(JSON.stringify(payload)), {}, { premiumIndicators: new Set(), receivedAt: '2026-11-26T12:00:00.000Z', sourceText: JSON.stringify(payload) })

t.test('modify: PickMyTrade update_sl/update_tp, CrossTrade CHANGE and our modify', async (t) => {
  // PickMyTrade: the flags say which leg moves; the other price sent is left alone.
  t.match(normalize({ symbol: 'MNQ1!', data: 'buy', update_sl: true, sl: 20960, tp: 21100, user_id: 'u' }), { kind: 'entry', action: 'LONG', instruction: { kind: 'modify', sl: 20960, tp: null } })
  t.match(normalize({ symbol: 'MNQ1!', data: 'sell', update_tp: 'true', tp: 20900, user_id: 'u' }), { action: 'SHORT', instruction: { kind: 'modify', sl: null, tp: 20900 } })
  t.match(normalize({ ticker: 'MNQ1!', action: 'CHANGE', stopLoss: { stopPrice: 20970 }, takeProfit: { limitPrice: 21150 }, user_id: 'u' }), { action: null, instruction: { kind: 'modify', sl: 20970, tp: 21150 } })
  t.match(normalize({ symbol: 'MNQ1!', action: 'modify', sl: '20,955.25', user_id: 'u' }), { instruction: { kind: 'modify', sl: 20955.25, tp: null } })
  t.throws(() => normalize({ symbol: 'MNQ1!', action: 'modify', user_id: 'u' }), /needs the new stop \(sl\) or target \(tp\)/)
  t.throws(() => normalize({ action: 'modify', sl: 1, user_id: 'u' }), /symbol required: a modify/)
  t.throws(() => normalize({ symbol: 'MNQ1!', action: 'modify', sl: 1 }), /user_id required/)
  t.throws(() => normalize({ symbol: 'MNQ1!', action: 'modify', stopLoss: { amount: 5 }, user_id: 'u' }), /relative to the entry price/, 'no entry price to measure from: refused')
})

t.test('cancel by type, flatten everything, kill switch', async (t) => {
  t.match(normalize({ ticker: 'MNQ1!', action: 'cancel', user_id: 'u' }), { kind: 'entry', instruction: { kind: 'cancel', orders: 'all' } }, 'TradersPost cancel: working orders, no longer an exit')
  t.match(normalize({ ticker: 'MNQ1!', action: 'cancel', orderType: 'stop', user_id: 'u' }), { instruction: { kind: 'cancel', orders: 'stop' } })
  t.match(normalize({ action: 'CANCELALLORDERS', cancel_type: 'take_profit', user_id: 'u' }), { symbol: null, instruction: { kind: 'cancel', orders: 'target' } })
  t.throws(() => normalize({ action: 'cancel', orderType: 'bracket', user_id: 'u' }), /order type "bracket" is not understood/)
  t.match(normalize({ action: 'FLATTENEVERYTHING', user_id: 'u' }), { kind: 'entry', action: null, instruction: { kind: 'flatten_account' } })
  t.match(normalize({ action: 'kill_switch', user_id: 'u' }), { instruction: { kind: 'kill_switch' } })
  t.throws(() => normalize({ action: 'kill_switch' }), /user_id required/)
  t.throws(() => normalize({ action: 'kill', side: 'cancel', user_id: 'u' }), /Contradictory alert: it asks for both kill switch and cancel/)
  t.throws(() => normalize({ action: 'cancel', side: 'exit', user_id: 'u' }), /"exit" cannot go with cancel/)
  t.equal(normalize({ symbol: 'MNQ1!', action: 'flatten', user_id: 'u' }).kind, 'result', 'flatten (one symbol) is still an exit')
  t.notOk('instruction' in normalize({ symbol: 'MNQ1!', action: 'buy', user_id: 'u' }), 'an entry carries no instruction')
})

t.test('entry order types and time in force', async (t) => {
  const entry = { symbol: 'MNQ1!', action: 'buy', sl: 20900, user_id: 'u' }
  t.notOk('entryOrder' in normalize(entry), 'a plain entry is unchanged')
  t.match(normalize({ ...entry, price: 21010, order_type: 'STP' }), { entryPrice: 21010, entryOrder: { type: 'stop', stopPrice: 21010, timeInForce: null } }, 'PickMyTrade STP: the trigger is the price')
  t.match(normalize({ ...entry, price: 21012, entry_stop_price: 21010, orderType: 'stop_limit', timeInForce: 'gtc' }), { entryPrice: 21012, entryOrder: { type: 'stop_limit', stopPrice: 21010, timeInForce: 'GTC' } })
  t.match(normalize({ ...entry, price: 20990, order_type: 'LMT', tif: 'IOC' }), { entryOrder: { type: 'limit', stopPrice: null, timeInForce: 'IOC' } })
  t.match(normalize({ ...entry, timeInForce: 'fill_or_kill' }), { entryOrder: { type: 'market', timeInForce: 'FOK' } })
  t.throws(() => normalize({ ...entry, orderType: 'stop_limit', price: 21012 }), /needs its trigger \(entry_stop_price\) and its limit/)
  t.throws(() => normalize({ ...entry, orderType: 'stop' }), /A stop entry needs its trigger/)
  t.throws(() => normalize({ ...entry, orderType: 'trailing_stop' }), /orderType "trailing_stop" is not supported/)
  t.throws(() => normalize({ ...entry, timeInForce: 'gtd' }), /timeInForce "gtd" is not supported/)
  t.equal(normalize({ symbol: 'MNQ1!', action: 'exit', orderType: 'stop', user_id: 'u' }).kind, 'result', 'an exit ignores the entry order type')
  // PickMyTrade's lmt_to_market_wait: the limit's unfilled remainder goes at the market after N seconds.
  t.match(normalize({ ...entry, price: 20990, order_type: 'LMT', lmt_to_market_wait: 30 }), { entryOrder: { type: 'limit', limitTimeoutSeconds: 30, limitTimeoutAction: 'market' } })
  t.equal(normalize({ ...entry, lmt_to_market_wait: 0 }).kind, 'entry', '0: not asked')
  t.throws(() => normalize({ ...entry, lmt_to_market_wait: 30 }), /lmt_to_market_wait applies to a limit entry only/)
  t.throws(() => normalize({ ...entry, price: 20990, order_type: 'LMT', lmt_to_market_wait: 'soon' }), /lmt_to_market_wait must be whole seconds/)
  t.throws(() => normalize({ ...entry, price: 20990, order_type: 'LMT', lmt_to_market_wait: 30, limit_timeout: 20 }), /limit_timeout and lmt_to_market_wait disagree/)
  t.throws(() => normalize({ ...entry, price: 20990, order_type: 'LMT', lmt_to_market_wait: 30, limit_timeout_action: 'cancel' }), /cannot go with limit_timeout_action cancel/)
  // Ours: a limit entry cancelled when not filled in N seconds (connector entry/limit-timeouts.ts).
  t.match(normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout: 30 }), { entryOrder: { type: 'limit', stopPrice: null, timeInForce: null, limitTimeoutSeconds: 30 } })
  t.same(normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout: 0 }).entryOrder, { type: 'limit', stopPrice: null, timeInForce: null }, '0: no timeout')
  t.throws(() => normalize({ ...entry, limit_timeout: 30 }), /limit_timeout applies to a limit entry only/)
  t.throws(() => normalize({ ...entry, order_type: 'limit', limit_timeout: 30 }), /limit_timeout needs the limit entry's price/)
  t.throws(() => normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout: 2.5 }), /limit_timeout must be whole seconds/)
  // limit_timeout_action: cancel (as without it) or market; anything else, or without a timeout, a 400.
  t.match(normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout: 30, limit_timeout_action: 'Market' }), { entryOrder: { limitTimeoutSeconds: 30, limitTimeoutAction: 'market' } })
  t.match(normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout: 30, limitTimeoutAction: 'cancel' }), { entryOrder: { limitTimeoutSeconds: 30, limitTimeoutAction: 'cancel' } })
  const bad = (() => {
    try {
      normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout: 30, limit_timeout_action: 'wait' })
    } catch (error) {
      return error
    }
    return null
  })()
  t.match(bad, { statusCode: 400, message: /limit_timeout_action "wait" is not supported \(expected cancel or market\)/ }, 'a 400 naming the value')
  t.throws(() => normalize({ ...entry, price: 20990, order_type: 'limit', limit_timeout_action: 'market' }), /limit_timeout_action needs limit_timeout/)
})

t.test('where the strategy says its position was, for the position sync guard (item 7)', async (t) => {
  t.match(normalize({ symbol: 'MNQ1!', action: 'buy', prev_market_position: 'flat', market_position: 'long', market_position_size: '-2', sl: 1, user_id: 'u' }), { strategyPosition: { before: 'FLAT', after: 'LONG', size: 2 } })
  t.notOk('strategyPosition' in normalize({ symbol: 'MNQ1!', action: 'buy', market_position: 'long', user_id: 'u' }), 'nothing to compare without the position before')
})
