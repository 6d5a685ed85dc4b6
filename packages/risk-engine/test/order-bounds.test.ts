import t from 'tap'
import { sizeEntry } from '../src/index.ts'
import { accountWith, alertWith, CL, configWith, input, MNQ, NQ } from './fixtures.ts'

/** The audit's alert: MNQ long at 21000 with a one-tick stop (20999.75) and a target 100 points up. */
const oneTick = alertWith({ entryPrice: '21000', stopPrice: '20999.75', targetPrice: '21100' })
/** A configuration that lets the one-tick stop through, so the caps are what is tested. */
const tightStops = configWith({ limits: { minStopTicks: 1 } })

t.test('every mode obeys the account limit per order, the platform ceiling and the risk strategy maximum', async (t) => {
  // fixed_fraction: $500 / $0.50 a contract = 1,000 contracts; the default limit of 5 holds.
  t.match(sizeEntry(input({ config: tightStops, contract: MNQ, alert: oneTick })), { kind: 'size', quantity: 5, riskAtStop: '2.50', note: /cut to 5, the account's limit per order/ })
  t.match(sizeEntry(input({ config: tightStops, contract: MNQ, alert: oneTick, caps: { maxContracts: 1 } })), { kind: 'size', quantity: 1, note: "The fixed_fraction size of 1000 contracts is cut to 1, the risk strategy's maximum contracts." })
  const roomy = configWith({ limits: { minStopTicks: 1, maxContractsPerOrder: 100 } })
  t.match(sizeEntry(input({ config: roomy, contract: MNQ, alert: oneTick, caps: { platformMaxContracts: 20 } })), { kind: 'size', quantity: 20, note: "The fixed_fraction size of 1000 contracts is cut to 20, the platform's ceiling per order." })

  const fixed = configWith({ riskMode: { mode: 'fixed_contracts', fixedContracts: 10 } })
  t.match(sizeEntry(input({ config: fixed, contract: MNQ })), { kind: 'size', quantity: 5, budget: null, note: /fixed_contracts size of 10 contracts is cut to 5/ })
  t.match(sizeEntry(input({ config: fixed, contract: MNQ, alert: alertWith({ stopPrice: null, targetPrice: null }), caps: { maxContracts: 2 } })), { kind: 'size', quantity: 2, riskAtStop: null }, 'also without a stop')

  const martingale = configWith({ riskMode: { mode: 'anti_martingale_pyramiding' }, antiMartingale: { baseContracts: 8, maxContracts: 9 } })
  t.match(sizeEntry(input({ config: martingale, contract: MNQ, caps: { maxContracts: 3 } })), { kind: 'size', quantity: 3, note: /anti_martingale_pyramiding size of 8 contracts is cut to 3/ })

  const fromAlert = configWith({ riskMode: { mode: 'alert_quantity', fixedContracts: 50 } })
  t.match(sizeEntry(input({ config: fromAlert, contract: MNQ, alert: alertWith({ quantity: 40 }) })), { kind: 'size', quantity: 5, note: /alert_quantity size of 40 contracts is cut to 5/ })
})

t.test('a stop closer than minStopTicks to the fill is refused', async (t) => {
  t.same(sizeEntry(input({ contract: MNQ, alert: oneTick })), {
    kind: 'refuse', code: 'stop_too_close', flatten: false,
    reason: 'The stop (20999.75) is 1 tick from the price the entry fills at (21000), closer than the 4-tick minimum.',
  })
  t.match(sizeEntry(input({ contract: MNQ, alert: alertWith({ stopPrice: '20999' }) })), { kind: 'size' }, 'four ticks is enough')
  // Measured from the market, not the alert: the alert's 10 points are 3 ticks from a market at 20990.75.
  t.match(sizeEntry(input({ alert: alertWith({ stopPrice: '20990' }), market: { price: '20990.75' } })), { kind: 'refuse', code: 'stop_too_close', reason: /3 ticks from the price the entry fills at \(20990\.75\)/ })
})

t.test('a market entry is sized from the broker\'s price, not the alert\'s', async (t) => {
  // Alert 21000 / stop 20990 (10 points, $200 an NQ): 2 contracts. Market at 21005: 15 points, $300: 1.
  t.match(sizeEntry(input()), { kind: 'size', quantity: 2, riskAtStop: '400.00' })
  t.match(sizeEntry(input({ market: { price: '21005' } })), { kind: 'size', quantity: 1, riskAtStop: '300.00' })
  // Market below the alert's entry: 5 points at risk, $100 a contract, 5 contracts (the default cap too).
  t.match(sizeEntry(input({ market: { price: '20995' } })), { kind: 'size', quantity: 5, riskAtStop: '500.00' })
  // A short: market at 20990, stop 21010, 20 points x $20 = $400: 1.
  t.match(sizeEntry(input({ alert: alertWith({ side: 'SHORT', stopPrice: '21010', targetPrice: '20950' }), market: { price: '20990' } })), { kind: 'size', quantity: 1, riskAtStop: '400.00' })
})

t.test('the market past the stop or the target, or too far from the alert, is refused with the figures', async (t) => {
  t.same(sizeEntry(input({ market: { price: '20990' } })), {
    kind: 'refuse', code: 'market_past_stop', flatten: false,
    reason: 'The market (20990) is already at or below the stop (20990) of this LONG entry.',
  })
  t.match(sizeEntry(input({ alert: alertWith({ side: 'SHORT', stopPrice: '21010', targetPrice: '20950' }), market: { price: '21012.5' } })), { kind: 'refuse', code: 'market_past_stop', reason: /above the stop \(21010\) of this SHORT entry/ })
  t.match(sizeEntry(input({ market: { price: '21030' } })), { kind: 'refuse', code: 'market_past_target', reason: 'The market (21030) is already at or above the target (21030) of this LONG entry.' })
  // The audit's case: market 21100, alert 21000: 400 ticks away.
  const audit = sizeEntry(input({ contract: MNQ, alert: alertWith({ stopPrice: '20999.75', targetPrice: '21200' }), market: { price: '21100' } }))
  t.same(audit, {
    kind: 'refuse', code: 'market_too_far', flatten: false,
    reason: "The market (21100) is 400 ticks from the alert's entry (21000), beyond the 40-tick limit.",
  })
  t.match(sizeEntry(input({ market: { price: '21010' } })), { kind: 'size' }, '40 ticks away is within the limit')
  t.match(sizeEntry(input({ market: { price: '21010.25' } })), { kind: 'refuse', code: 'market_too_far', reason: /41 ticks/ })
  t.match(sizeEntry(input({ config: configWith({ limits: { maxEntryDistanceTicks: 100 } }), market: { price: '21015' } })), { kind: 'size', quantity: 1, riskAtStop: '500.00' }, 'configurable')
})

t.test('no usable market price refuses market and limit entries alike, saying why', async (t) => {
  const none = { price: null, reason: 'the broker has sent no quote for NQZ6 yet' }
  t.same(sizeEntry(input({ market: none })), {
    kind: 'refuse', code: 'no_market_price', flatten: false,
    reason: "There is no usable market price for NQ (the broker has sent no quote for NQZ6 yet), and a market entry is sized from the broker's price, never the alert's.",
  })
  t.match(sizeEntry(input({ alert: alertWith({ orderType: 'limit' }), market: none })), { kind: 'refuse', code: 'no_market_price', reason: /a limit entry is checked against the market before it is placed/ })
})

t.test('a limit entry is sized at its limit, and refused when the market is already past its stop', async (t) => {
  const limit = alertWith({ orderType: 'limit', entryPrice: '20995', stopPrice: '20985', targetPrice: '21030' })
  // Sized at the limit (10 points, $200): 2 contracts, wherever the market is above the stop.
  t.match(sizeEntry(input({ alert: limit, market: { price: '21040' } })), { kind: 'size', quantity: 2, riskAtStop: '400.00' }, 'a resting limit far from the market is fine')
  t.match(sizeEntry(input({ alert: limit, market: { price: '20985' } })), { kind: 'refuse', code: 'market_past_stop' })
})

t.test('margin: a contract needs marginPercent of its value; budget modes are cut to the room, fixed counts refused', async (t) => {
  // NQ at 21000: 2% of 21000 x $20 = $8,400 a contract. The default 50,000 holds 5.
  const wide = configWith({ limits: { maxContractsPerOrder: 100, marginPercent: 10 } })
  // 10%: $42,000 a contract: one fits in 50,000; the 2 the budget allows are cut to 1.
  t.match(sizeEntry(input({ config: wide })), { kind: 'size', quantity: 1, note: '2 contracts would need more margin than the $50,000.00 there is room for (10% of 21000 x $20.00 a contract); 1 fits.' })
  const fixed = configWith({ riskMode: { mode: 'fixed_contracts', fixedContracts: 2 }, limits: { marginPercent: 10 } })
  t.same(sizeEntry(input({ config: fixed })), {
    kind: 'refuse', code: 'insufficient_margin', flatten: false,
    reason: '2 contracts need $84,000.00 of margin (10% of 21000 x $20.00 each), more than the $50,000.00 the $50,000.00 equity holds.',
  })
  // Open trades hold margin too: 3 ES at 6000 (2% of 6000 x $50 = $6,000 each) leave 32,000 of 50,000: 3 NQ.
  const es = { root: 'ES', side: 'LONG' as const, quantity: 3, entryPrice: '6000', openPnl: '0' }
  const many = configWith({ riskMode: { mode: 'fixed_contracts', fixedContracts: 4 } })
  t.match(sizeEntry(input({ config: many, account: accountWith({ openTrades: [es] }) })), { kind: 'refuse', code: 'insufficient_margin', reason: /4 contracts need \$33,600\.00 of margin \(2% of 21000 x \$20\.00 each\), more than the \$32,000\.00 the \$50,000\.00 equity leaves after the open trades' \$18,000\.00\./ })
  t.match(sizeEntry(input({ config: configWith({ riskMode: { mode: 'fixed_contracts', fixedContracts: 3 } }), account: accountWith({ openTrades: [es] }) })), { kind: 'size', quantity: 3 })
  const full = accountWith({ openTrades: [{ ...es, quantity: 9 }] })
  t.match(sizeEntry(input({ config: configWith({ limits: { maxOpenTrades: 5 } }), account: full })), { kind: 'refuse', code: 'insufficient_margin', reason: /One contract needs \$8,400\.00 of margin .*, and the open trades' \$54,000\.00 of margin already take the whole \$50,000\.00 equity\./ })
  // CL short at 71.50: 2% of 71.5 x $1000 = $1,430: nowhere near the balance.
  t.match(sizeEntry(input({ contract: CL, alert: alertWith({ side: 'SHORT', entryPrice: '71.50', stopPrice: '71.80', targetPrice: '70.90' }) })), { kind: 'size', quantity: 1 })
})

t.test("the audit's findings: a one-tick MNQ stop and a market 400 ticks away", async (t) => {
  // One tick with the default minimum of 4: refused; with the minimum at 1, 5 contracts (the default cap), 1 with maxContracts 1.
  t.match(sizeEntry(input({ contract: MNQ, alert: oneTick, caps: { maxContracts: 1 } })), { kind: 'refuse', code: 'stop_too_close' })
  t.match(sizeEntry(input({ config: tightStops, contract: MNQ, alert: oneTick, caps: { maxContracts: 1 } })), { kind: 'size', quantity: 1, riskAtStop: '0.50' })
  // Market 21100, alert 21000 / 20999.75: never 1,040 contracts losing $208,520; refused before sizing.
  t.match(sizeEntry(input({ config: configWith({ limits: { maxEntryDistanceTicks: 1000 } }), contract: MNQ, alert: alertWith({ stopPrice: '20999.75', targetPrice: '21200' }), market: { price: '21100' } })), {
    kind: 'size', quantity: 2, riskAtStop: '401.00',
  }, 'even allowed that far, the loss is measured from 21100: $200.50 a contract, two fit the $500 budget')
  t.match(sizeEntry(input({ contract: NQ, alert: oneTick, config: tightStops })), { kind: 'size', quantity: 5 }, 'NQ: $5 a contract, 100 by budget, cut to 5; 5 x $8,400 of margin fits')
})
