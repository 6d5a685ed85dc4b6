import t from 'tap'
import { asksForLimit, isLimitEntry, orderTagOf, parseOrderTag, planPrices, roundToTick } from '../../../src/trading/entry/order-plan.ts'
import { parseAlert } from '../../../../ingest/src/parsing/parse-alert.ts'
import { normalizeAlert } from '../../../../ingest/src/parsing/normalize.ts'

t.test('roundToTick puts a price on the grid in the asked direction, exactly', async (t) => {
  t.equal(roundToTick('21000.30', '0.25', 'down'), '21000.25')
  t.equal(roundToTick('21000.30', '0.25', 'up'), '21000.50')
  t.equal(roundToTick('21000.25000000', '0.25', 'up'), '21000.25', 'a price on the grid stays, written with the tick decimals')
  t.equal(roundToTick('1.23456', '0.00005', 'down'), '1.23455')
  t.equal(roundToTick('112.0400', '0.03125', 'up'), '112.06250')
  t.equal(roundToTick('-0.3', '0.25', 'down'), '-0.50', 'negative prices (spreads) floor away from zero')
  t.equal(roundToTick('-0.3', '0.25', 'up'), '-0.25')
})

t.test('stop and target round toward the entry: never more risk, never a target beyond the alert', async (t) => {
  t.same(planPrices({ side: 'LONG', entryPrice: '21000.30', stop: '20950.10', target: '21100.60', limit: false }, '0.25'), {
    entryType: 'Market',
    entryPrice: '21000.30',
    stopPrice: '20950.25',
    targetPrice: '21100.50',
  })
  t.same(planPrices({ side: 'SHORT', entryPrice: '21000', stop: '21050.10', target: '20900.60', limit: true }, '0.25'), {
    entryType: 'Limit',
    entryPrice: '21000.00',
    stopPrice: '21050.00',
    targetPrice: '20900.75',
  })
  t.match(planPrices({ side: 'LONG', entryPrice: null, stop: null, target: null, limit: true }, '0.25'), { entryType: 'Market', stopPrice: null }, 'a limit needs a price')
  t.equal(planPrices({ side: 'LONG', entryPrice: '21000.30', stop: null, target: null, limit: true }, '0.25').entryPrice, '21000.25', 'a buy limit never pays more')
})

t.test('a limit entry is asked for by orderType / order_type "limit" in the payload', async (t) => {
  t.ok(asksForLimit({ orderType: 'Limit' }))
  t.ok(asksForLimit({ order_type: ' limit ' }))
  // Ingest accepts PickMyTrade's LMT as a limit entry: it must not be placed at the market (issue 24, found with item 6).
  t.ok(asksForLimit({ order_type: 'LMT' }))
  t.notOk(asksForLimit({ orderType: 'market' }))
  t.notOk(asksForLimit('orderType: limit'))
  t.notOk(asksForLimit(null))
})

t.test('a limit ingest read is a limit here, however the sender spelled or wrapped it (review, stop 28)', async (t) => {
  // Ingest reads field names without case or punctuation, and bodies wrapped in `message`: each of these
  // was published as a limit entry and placed at market (its limit_timeout lost with it).
  const bodies = [
    { ORDER_TYPE: 'LMT', price: 21000, limit_timeout: 30 },
    { OrderType: 'Limit', price: 21000, timeInForce: 'GTC' },
    { message: { order_type: 'limit', price: 21000 } },
    { 'order-type': 'limit', price: 21000 },
  ]
  for (const body of bodies) {
    const payload = 'message' in body ? { ...body, message: { ...body.message, symbol: 'MNQ1!', action: 'buy', sl: 20950, user_id: 'u' } } : { ...body, symbol: 'MNQ1!', action: 'buy', sl: 20950, user_id: 'u' }
    const text = JSON.stringify(payload)
    const alert = normalizeAlert(parseAlert(text), {}, { premiumIndicators: new Set(), receivedAt: '2026-11-26T12:00:00.000Z', sourceText: text })
    t.equal(alert.kind, 'entry')
    t.ok(isLimitEntry(alert.raw, alert.entryOrder ?? null), `a limit: ${text}`)
  }
  const market = JSON.stringify({ symbol: 'MNQ1!', action: 'buy', sl: 20950, price: 21000, user_id: 'u' })
  const plain = normalizeAlert(parseAlert(market), {}, { premiumIndicators: new Set(), receivedAt: '2026-11-26T12:00:00.000Z', sourceText: market })
  t.notOk(isLimitEntry(plain.raw, plain.entryOrder ?? null), 'no order type: market')
})

t.test('order tags name the record and the leg, and nothing else parses', async (t) => {
  t.equal(orderTagOf(42), 'sig-42')
  t.same(parseOrderTag('sig-42'), { recordId: 42, leg: 'entry' })
  t.same(parseOrderTag('sig-42.sl'), { recordId: 42, leg: 'stop' })
  t.same(parseOrderTag('sig-42.tp'), { recordId: 42, leg: 'target' })
  t.same(parseOrderTag('sig-42.tp2'), { recordId: 42, leg: 'target', level: 2 }, 'one of several targets\' pairs')
  t.same(parseOrderTag('sig-42.sl3'), { recordId: 42, leg: 'stop', level: 3 }, 'the stop of pair 3')
  t.same(parseOrderTag('sig-42.tp50'), { recordId: 42, leg: 'target', level: 50 }, 'one pair per contract: as many as the contracts')
  t.equal(parseOrderTag('sig-42.sl0'), null)
  t.equal(parseOrderTag('sig-42.tp01'), null)
  t.equal(parseOrderTag('sig-42.tp10000'), null)
  t.equal(parseOrderTag('manual-1'), null)
  t.equal(parseOrderTag('sig-42.xx'), null)
  t.equal(parseOrderTag(null), null)
})
