import t from 'tap'
import { expanded } from '../fixtures/example.ts'
import * as pickMyTrade from '../fixtures/pickmytrade.ts'
import * as threeCommas from '../fixtures/three-commas.ts'
import * as tradersPost from '../fixtures/traderspost.ts'
import * as tradingView from '../fixtures/tradingview.ts'
import { assertFormatCases } from './format-cases.ts'

const LONG = { action: 'LONG' } as const
const SHORT = { action: 'SHORT' } as const
const EXIT = { kind: 'result', result: 'Exit' } as const

/** A limit entry as ingest read it: published so that the connector never has to find the field in the raw body. */
const LIMIT_ENTRY = { entryOrder: { type: 'limit' as const, stopPrice: null, timeInForce: null } }

t.test('TradersPost: every documented example', async (t) => {
  const strategy = (action: string, sentiment: string) => expanded(tradersPost.strategyTemplate, { ticker: 'NQ1!', 'strategy.order.action': action, 'strategy.market_position': sentiment })
  await assertFormatCases(t, [
    { label: 'relative brackets from signalPrice', body: tradersPost.signalWithRelativeBrackets.body, published: { ...LONG, symbol: 'AMD', entryPrice: 143.12, tp: 157.432, sl: 135.964, quantity: 1 } },
    { label: 'curl buy', body: tradersPost.curlMinimal.body, published: { ...LONG, symbol: 'MNQ', root: 'MNQ' } },
    { label: 'indicator with price', body: tradersPost.indicatorWithPrice.body, published: { ...LONG, symbol: 'TSLA', entryPrice: 420.69 } },
    { label: 'exit (trailing comma)', body: tradersPost.exitAny.body, published: { ...EXIT, symbol: 'AAPL' } },
    { label: 'buy + flat closes the short', body: tradersPost.buyFlat.body, published: { ...EXIT, ...LONG, symbol: 'AAPL', closes: 'SHORT' } },
    { label: 'sell + flat closes the long, never a short entry', body: tradersPost.sellFlat.body, published: { ...EXIT, ...SHORT, symbol: 'AAPL', closes: 'LONG' } },
    { label: 'strategy template as printed', body: tradersPost.strategyTemplate.body, refused: /^Unexpanded placeholder \{\{ticker\}\} in ticker \(symbol\):/ },
    { label: 'strategy: sell leaving flat', body: strategy('sell', 'flat'), published: { ...EXIT, ...SHORT, symbol: 'NQ1!', root: 'NQ', closes: 'LONG' } },
    { label: 'strategy: buy leaving long', body: strategy('buy', 'long'), published: { ...LONG, symbol: 'NQ1!', root: 'NQ' } },
    { label: 'strategy: sell leaving short', body: strategy('sell', 'short'), published: { ...SHORT, symbol: 'NQ1!', root: 'NQ' } },
    { label: 'strategy: buy leaving short (partial cover) without a size', body: strategy('buy', 'short'), refused: /^buy with the position after it still short closes part of the position, but the alert says neither how much/ },
    { label: 'sell + sentiment long with quantity: a partial close', body: { ticker: 'MNQZ6', action: 'sell', sentiment: 'long', quantity: 1 }, published: { ...EXIT, ...SHORT, symbol: 'MNQZ6', root: 'MNQ', quantity: 1, closes: 'LONG', closePart: { quantity: 1, percent: null, remaining: null } } },
    { label: 'exit 50 percent_of_position', body: { ticker: 'MNQZ6', action: 'exit', quantity: 50, quantityType: 'percent_of_position' }, published: { ...EXIT, symbol: 'MNQZ6', root: 'MNQ', closePart: { quantity: null, percent: 50, remaining: null } } },
    { label: 'add', body: { ticker: 'MNQZ6', action: 'add', quantity: 1 }, published: { symbol: 'MNQZ6', root: 'MNQ', quantity: 1, orderWord: 'add' } },
    { label: 'stocks: enter bullish', body: tradersPost.stockBuy.body, published: { ...LONG, symbol: 'SQ' } },
    { label: 'stocks: exit', body: tradersPost.stockExit.body, published: { ...EXIT, symbol: 'SQ' } },
    { label: 'stocks: enter bearish', body: tradersPost.stockSell.body, published: { ...SHORT, symbol: 'SQ' } },
    { label: 'stocks: full signal', body: tradersPost.stockFull.body, published: { ...LONG, symbol: 'SQ', entryPrice: 108.88, quantity: 100 } },
    { label: 'stopLoss amount', body: tradersPost.stopLossAmount.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100, sl: 90 } },
    { label: 'takeProfit percent (stop-loss page)', body: tradersPost.stopLossPageTakeProfitPercent.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100, tp: 110 } },
    { label: 'stopLoss stopPrice', body: tradersPost.stopLossStopPrice.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100, sl: 90 } },
    { label: 'takeProfit amount', body: tradersPost.takeProfitAmount.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100, tp: 110 } },
    { label: 'takeProfit percent', body: tradersPost.takeProfitPercent.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100, tp: 110 } },
    { label: 'takeProfit limitPrice', body: tradersPost.takeProfitLimitPrice.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100, tp: 110 } },
    { label: 'takeProfit pnlAmount', body: tradersPost.takeProfitPnl.body, refused: /^takeProfit\.pnlAmount \(a profit in dollars\) is not supported/ },
    { label: 'orderType market', body: tradersPost.marketOrder.body, published: { ...LONG, symbol: 'AAPL' } },
    { label: 'orderType limit', body: tradersPost.limitOrder.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'AAPL', entryPrice: 100 } },
    // A stop entry's top-level stopPrice is its trigger (and where it fills about), not a stop loss (issue 24, item 6).
    { label: 'orderType stop', body: tradersPost.stopOrder.body, published: { ...LONG, symbol: 'AAPL', entryPrice: 100, entryOrder: { type: 'stop', stopPrice: 100, timeInForce: null } } },
    { label: 'orderType stop_limit', body: tradersPost.stopLimitOrder.body, published: { ...LONG, symbol: 'AAPL', entryPrice: 99, entryOrder: { type: 'stop_limit', stopPrice: 100, timeInForce: null } } },
    { label: 'order behavior: sell', body: tradersPost.behaviorSell.body, published: { ...SHORT, symbol: 'TSLA' } },
    { label: 'order behavior: limit', body: tradersPost.behaviorLimit.body, published: { ...LONG, ...LIMIT_ENTRY, symbol: 'TSLA', entryPrice: 120.12 } },
    { label: 'order behavior: quantity', body: tradersPost.behaviorQuantity.body, published: { ...LONG, symbol: 'TSLA', quantity: 5 } },
    { label: 'futures contract', body: tradersPost.futuresContract.body, published: { ...LONG, symbol: 'MNQU2025', root: 'MNQ' } },
  ])
})

t.test('TradersPost relative brackets: worked out for a short, refused without a price', async (t) => {
  const { signalPrice: _price, ...withoutPrice } = tradersPost.signalWithRelativeBrackets.body as Record<string, unknown>
  await assertFormatCases(t, [
    { label: 'sell: stop above, target below', body: { ticker: 'NQZ6', action: 'sell', price: 21000, stopLoss: { amount: 25 }, takeProfit: { percent: 1 } }, published: { ...SHORT, symbol: 'NQZ6', root: 'NQ', entryPrice: 21000, sl: 21025, tp: 20790 } },
    { label: 'percent without a price', body: withoutPrice, refused: /^stopLoss\.percent is relative to the entry price, and the alert carries no price .* the stop cannot be placed/ },
    { label: 'amount without a price', body: { ticker: 'NQZ6', action: 'buy', stopLoss: { type: 'stop', amount: 10 } }, refused: /^stopLoss\.amount is relative to the entry price.*the stop cannot be placed/ },
    { label: 'both stopPrice and percent', body: { ticker: 'NQZ6', action: 'buy', price: 100, stopLoss: { stopPrice: 90, percent: 5 } }, refused: /^stopLoss gives both stopprice and percent; send one/ },
    { label: 'trailing stop', body: { ticker: 'NQZ6', action: 'buy', price: 100, stopLoss: { type: 'trailing_stop', trailAmount: 5 } }, refused: /^stopLoss: trailing stops are not supported/ },
    { label: 'an exit ignores a relative bracket it cannot use', body: { ticker: 'NQZ6', action: 'exit', stopLoss: { percent: 5 } }, published: { ...EXIT, symbol: 'NQZ6', root: 'NQ' } },
  ])
})

t.test('PickMyTrade: every documented example', async (t) => {
  const values = (action: string) => ({ timenow: '2026-11-23T01:00:00Z', 'strategy.order.action': action, 'strategy.order.contracts': '2', close: '21000.5', ticker: 'NQ1!' })
  const strategyBuy = expanded(pickMyTrade.strategyJson, values('buy'))
  const close = JSON.stringify({ ...(JSON.parse(strategyBuy) as Record<string, unknown>), data: 'close' })
  await assertFormatCases(t, [
    { label: 'strategy JSON as printed', body: pickMyTrade.strategyJson.body, refused: /^Unexpanded placeholder \{\{strategy\.order\.action\}\} in data \(action\):/ },
    { label: 'strategy JSON, buy 2', body: strategyBuy, published: { ...LONG, symbol: 'NQ', root: 'NQ', entryPrice: 21000.5, quantity: 2 } },
    { label: 'strategy JSON, sell 2', body: expanded(pickMyTrade.strategyJson, values('sell')), published: { ...SHORT, symbol: 'NQ', root: 'NQ', entryPrice: 21000.5, quantity: 2 } },
    { label: 'close alert', body: close, published: { ...EXIT, symbol: 'NQ', root: 'NQ', entryPrice: 21000.5, exitPrice: 21000.5, quantity: 2 } },
    { label: 'indicator alert as printed', body: pickMyTrade.indicatorJson.body, refused: /^Unexpanded placeholder \{\{ticker\}\} in symbol:/ },
    { label: 'indicator alert, dollar_tp 2', body: expanded(pickMyTrade.indicatorJson, values('buy')), refused: /^dollar_tp is not supported: send tp and sl as prices/ },
    { label: 'Rithmic indicator as printed', body: pickMyTrade.rithmicIndicatorJson.body, refused: /^Unexpanded placeholder \{\{close\}\} in price:/ },
    { label: 'Rithmic indicator, percentage_tp 100', body: expanded(pickMyTrade.rithmicIndicatorJson, values('buy')), refused: /^percentage_tp is not supported/ },
  ])
})

t.test('3Commas signal bot: strategy and custom signals, max_lag', async (t) => {
  const now = new Date().toISOString()
  const strategy = (action: string, position: string, size: string, previous: string, previousSize: string, contracts: string, timenow = now) =>
    expanded(threeCommas.strategyType, {
      timenow, close: '21000.5', exchange: 'CME_MINI', ticker: 'NQ1!', 'strategy.order.action': action, 'strategy.market_position': position,
      'strategy.market_position_size': size, 'strategy.prev_market_position': previous, 'strategy.prev_market_position_size': previousSize, 'strategy.order.contracts': contracts,
    })
  const custom = (example: typeof threeCommas.enterLong) => expanded(example, { timenow: now, close: '5000.25', exchange: 'CME_MINI', ticker: 'ES1!' })
  const es = { symbol: 'ES1!', root: 'ES' } as const
  await assertFormatCases(t, [
    { label: 'strategy JSON as printed', body: threeCommas.strategyType.body, refused: /^Unexpanded placeholder \{\{timenow\}\} in the timestamp: .* max_lag needs/ },
    { label: 'strategy: buy 1 from flat', body: strategy('buy', 'long', '1', 'flat', '0', '1'), published: { ...LONG, symbol: 'NQ1!', root: 'NQ', entryPrice: 21000.5, quantity: 1, strategyPosition: { before: 'FLAT', after: 'LONG', size: 1 } } },
    { label: 'strategy: sell 1 to flat closes the long', body: strategy('sell', 'flat', '0', 'long', '1', '1'), published: { ...EXIT, ...SHORT, symbol: 'NQ1!', root: 'NQ', entryPrice: 21000.5, exitPrice: 21000.5, quantity: 1, closes: 'LONG' } },
    { label: 'strategy: reversal long 1 -> short 1 (order of 2)', body: strategy('sell', 'short', '1', 'long', '1', '2'), published: { ...SHORT, symbol: 'NQ1!', root: 'NQ', entryPrice: 21000.5, quantity: 1, orderWord: 'reverse', strategyPosition: { before: 'LONG', after: 'SHORT', size: 1 } } },
    { label: 'strategy: older than max_lag', body: strategy('buy', 'long', '1', 'flat', '0', '1', new Date(Date.now() - 600_000).toISOString()), refused: /^Alert is \d+ s old; alerts older than 300 s \(its max_lag\) are refused/, outcome: 'too_old' },
    { label: 'custom signal with its time filled in, the rest not: the first placeholder sent is named', body: expanded(threeCommas.enterLong, { timenow: now }), refused: /^Unexpanded placeholder \{\{close\}\} in trigger_price \(price\):/ },
    { label: 'enter_long', body: custom(threeCommas.enterLong), published: { ...LONG, ...es, entryPrice: 5000.25 } },
    { label: 'exit_long', body: custom(threeCommas.exitLong), published: { ...EXIT, ...es, entryPrice: 5000.25, exitPrice: 5000.25, closes: 'LONG' } },
    { label: 'enter_short', body: custom(threeCommas.enterShort), published: { ...SHORT, ...es, entryPrice: 5000.25 } },
    { label: 'exit_short', body: custom(threeCommas.exitShort), published: { ...EXIT, ...es, entryPrice: 5000.25, exitPrice: 5000.25, closes: 'SHORT' } },
    { label: 'custom signal as printed', body: threeCommas.exitLong.body, refused: /^Unexpanded placeholder \{\{timenow\}\} in the timestamp/ },
    { label: 'max_lag with an unreadable timestamp', body: { ...threeCommas.exitLong.body as Record<string, unknown>, timestamp: 'yesterday', tv_instrument: 'ES1!', trigger_price: '1' }, refused: /^max_lag is set but the alert has no readable timestamp/ },
  ])
})

t.test('TradingView: placeholders in free text and strategy messages', async (t) => {
  const strategy = (action: string, position: string, previous: string, contracts: string, size: string) =>
    expanded(tradingView.strategyJson, {
      ticker: 'MNQZ6', 'strategy.order.action': action, 'strategy.order.contracts': contracts, 'strategy.order.price': '21000.25',
      'strategy.market_position': position, 'strategy.prev_market_position': previous, 'strategy.market_position_size': size,
    })
  const freeText = expanded(tradingView.variableExample, { exchange: 'CME_MINI', ticker: 'NQ1!', close: '21000.5', volume: '1234' })
  const mnq = { symbol: 'MNQZ6', root: 'MNQ', entryPrice: 21000.25 } as const
  await assertFormatCases(t, [
    { label: 'variable example as printed', body: tradingView.variableExample.body, refused: /^Unexpanded placeholder \{\{exchange\}\} in the alert text/ },
    { label: 'variable example filled in: kept whole, as free text', body: freeText, published: { parseFailed: true, raw: { _raw: true, text: freeText } } },
    { label: 'strategy message as printed', body: tradingView.strategyJson.body, refused: /^Unexpanded placeholder \{\{ticker\}\} in ticker \(symbol\):/ },
    { label: 'strategy message with only the action left unexpanded', body: expanded(tradingView.strategyJson, { ticker: 'MNQZ6', 'strategy.order.contracts': '1', 'strategy.order.price': '1', 'strategy.market_position': 'long', 'strategy.prev_market_position': 'flat', 'strategy.market_position_size': '1' }), refused: /^Unexpanded placeholder \{\{strategy\.order\.action\}\} in action:/ },
    { label: 'strategy: long entry', body: strategy('buy', 'long', 'flat', '3', '3'), published: { ...LONG, ...mnq, quantity: 3, strategyPosition: { before: 'FLAT', after: 'LONG', size: 3 } } },
    { label: 'strategy: flat after a sell', body: strategy('sell', 'flat', 'long', '3', '0'), published: { ...EXIT, ...SHORT, ...mnq, exitPrice: 21000.25, quantity: 3, closes: 'LONG' } },
    { label: 'strategy: reversal to short', body: strategy('sell', 'short', 'long', '6', '3'), published: { ...SHORT, ...mnq, quantity: 3, orderWord: 'reverse', strategyPosition: { before: 'LONG', after: 'SHORT', size: 3 } } },
    { label: "strategy: partial exit of a long: the strategy's share (1 of 3), not its contracts", body: strategy('sell', 'long', 'long', '1', '2'), published: { ...EXIT, ...SHORT, ...mnq, exitPrice: 21000.25, quantity: 1, closes: 'LONG', closePart: { quantity: null, percent: 100 / 3, remaining: null } } },
    { label: 'exit that leaves a short', body: { ticker: 'MNQZ6', action: 'exit', market_position: 'short', prev_market_position: 'long' }, refused: /^Ambiguous alert: the action says an exit but the position after it is short/ },
    { label: 'sentiment and market_position disagree', body: { ticker: 'MNQZ6', action: 'buy', sentiment: 'long', market_position: 'flat' }, refused: /^Contradictory alert: sentiment is long but market_position is flat/ },
  ])
})
