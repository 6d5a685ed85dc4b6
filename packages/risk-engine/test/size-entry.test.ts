import t from 'tap'
import { sizeEntry } from '../src/index.ts'
import { accountWith, alertWith, CL, configWith, input, MNQ, NQ } from './fixtures.ts'

t.test('fixed_fraction: floor(budget / (stop distance x point value))', async (t) => {
  // $50,000 x 1% = $500; 10 points x $20 = $200 a contract; 500 / 200 = 2.5 -> 2.
  t.same(sizeEntry(input()), { kind: 'size', quantity: 2, budget: '500.00', riskAtStop: '400.00', note: null })
  // MNQ: 10 points x $2 = $20 a contract; 500 / 20 = 25 (with room for 25 contracts in one order).
  const roomy = configWith({ limits: { maxContractsPerOrder: 30 } })
  t.same(sizeEntry(input({ config: roomy, contract: MNQ })), { kind: 'size', quantity: 25, budget: '500.00', riskAtStop: '500.00', note: null })
  // With the default limit of 5 contracts an order, the 25 the budget allows are cut to 5.
  t.same(sizeEntry(input({ contract: MNQ })), {
    kind: 'size', quantity: 5, budget: '500.00', riskAtStop: '100.00',
    note: "The fixed_fraction size of 25 contracts is cut to 5, the account's limit per order (limits.maxContractsPerOrder).",
  })
  // Short CL at 71.50, stop 71.80: 0.30 x $1000 = $300; 500 / 300 = 1.67 -> 1.
  const cl = sizeEntry(input({ contract: CL, alert: alertWith({ side: 'SHORT', entryPrice: '71.50', stopPrice: '71.80', targetPrice: '70.90' }) }))
  t.same(cl, { kind: 'size', quantity: 1, budget: '500.00', riskAtStop: '300.00', note: null })
})

t.test('fixed_fraction: the budget is the smallest of per-trade risk, room above the floor less the buffer, and the daily loss left', async (t) => {
  // Balance 48,600, peak 50,000 -> floor 48,000, room 600, less 10% = 540; per trade 486; 486 / 200 -> 2.
  t.match(sizeEntry(input({ account: accountWith({ balance: '48600' }) })), { kind: 'size', quantity: 2, budget: '486.00' })
  // Balance 48,300: room 300 less 10% = 270 < 483; 270 / 200 -> 1.
  t.match(sizeEntry(input({ account: accountWith({ balance: '48300' }) })), { kind: 'size', quantity: 1, budget: '270.00', riskAtStop: '200.00' })
  // Today -700 realized: 300 left of the 1,000 daily limit; 300 / 200 -> 1.
  t.match(sizeEntry(input({ account: accountWith({ balance: '49300', todayRealizedPnl: '-700' }) })), { kind: 'size', quantity: 1, budget: '300.00' })
  // Open loss counts towards the daily limit: -500 realized and -350 open leaves 150 < 200.
  const daily = sizeEntry(input({ account: accountWith({ balance: '49500', todayRealizedPnl: '-500', openPnl: '-350', openTrades: [{ root: 'ES', side: 'LONG', quantity: 1, entryPrice: '6000', openPnl: '-350' }] }) }))
  t.match(daily, { kind: 'refuse', code: 'daily_loss_at_stop', flatten: false })
  t.match(daily.kind === 'refuse' ? daily.reason : '', /\$200\.00 at the stop \(10 points x \$20\.00\).*\$150\.00 \(what is left of the \$1,000\.00 daily loss limit\)/)
})

t.test('fixed_fraction refusals: no stop, a size below one contract, a stop too wide for the floor', async (t) => {
  t.match(sizeEntry(input({ alert: alertWith({ stopPrice: null }) })), { kind: 'refuse', code: 'no_stop', flatten: false })
  const wide = sizeEntry(input({ alert: alertWith({ stopPrice: '20970' }) }))
  t.match(wide, { kind: 'refuse', code: 'size_below_one', reason: /One contract would lose \$600\.00 at the stop \(30 points x \$20\.00\), more than the budget of \$500\.00 \(1% of the \$50,000\.00 balance\)\./ })
  const nearFloor = sizeEntry(input({ account: accountWith({ balance: '48150' }) }))
  t.match(nearFloor, { kind: 'refuse', code: 'drawdown_floor', reason: /\$135\.00 \(the \$150\.00 above the \$48,000\.00 drawdown floor less the 10% safety buffer\)/ })
})

t.test('fixed_contracts keeps its size unless the stop would breach a limit', async (t) => {
  const config = configWith({ riskMode: { mode: 'fixed_contracts', fixedContracts: 3 } })
  t.same(sizeEntry(input({ config })), { kind: 'size', quantity: 3, budget: null, riskAtStop: '600.00', note: null }, '3 x $200 = $600 is above 1% but fixed contracts ignore it')
  t.same(sizeEntry(input({ config, alert: alertWith({ stopPrice: null, targetPrice: null }) })), { kind: 'size', quantity: 3, budget: null, riskAtStop: null, note: null })
  // Balance 48,500: room 500 < 600 at the stop.
  t.match(sizeEntry(input({ config, account: accountWith({ balance: '48500' }) })), { kind: 'refuse', code: 'drawdown_floor', reason: /3 contracts would lose \$600\.00 at the stop, taking the \$48,500\.00 equity below the drawdown floor of \$48,000\.00\./ })
  t.match(sizeEntry(input({ config, account: accountWith({ balance: '49500', todayRealizedPnl: '-500' }) })), { kind: 'refuse', code: 'daily_loss_at_stop', reason: /more than the \$500\.00 left of the daily loss limit/ })
})

t.test('alert_quantity: the alert quantity, capped by fixedContracts and the risk budget', async (t) => {
  const config = configWith({ riskMode: { mode: 'alert_quantity', fixedContracts: 4 } })
  t.same(sizeEntry(input({ config, contract: MNQ, alert: alertWith({ quantity: 3 }) })), { kind: 'size', quantity: 3, budget: '500.00', riskAtStop: '60.00', note: null })
  t.match(sizeEntry(input({ config, contract: MNQ, alert: alertWith({ quantity: 9 }) })), { kind: 'size', quantity: 4, note: 'The alert asked for 9 contracts; riskMode.fixedContracts caps it at 4.' })
  // NQ: budget 500 / 200 = 2 contracts fit of the 3 asked.
  t.match(sizeEntry(input({ config, alert: alertWith({ quantity: 3 }) })), { kind: 'size', quantity: 2, riskAtStop: '400.00', note: /3 contracts would risk more than the budget of \$500\.00/ })
  t.same(sizeEntry(input({ config, alert: alertWith({ quantity: 3, stopPrice: null, targetPrice: null }) })), { kind: 'size', quantity: 3, budget: null, riskAtStop: null, note: null })
  t.match(sizeEntry(input({ config, alert: alertWith({ quantity: null }) })), { kind: 'refuse', code: 'no_quantity' })
  t.match(sizeEntry(input({ config, alert: alertWith({ quantity: 1.5 }) })), { kind: 'refuse', code: 'invalid_quantity' })
  t.match(sizeEntry(input({ config, alert: alertWith({ quantity: 0 }) })), { kind: 'refuse', code: 'invalid_quantity' })
})

t.test("a subscription's multiplier: the alert's quantity times it, whole contracts, in place of the mode, held by the budget and the caps", async (t) => {
  // The account's mode (fixed_fraction) does not decide the size; the multiplier does.
  t.same(sizeEntry(input({ contract: MNQ, alert: alertWith({ quantity: 2, quantityMultiplier: '1.5' }) })), { kind: 'size', quantity: 3, budget: '500.00', riskAtStop: '60.00', note: "Sized by the source's multiplier: 2 x 1.5 = 3 contract(s)." })
  t.match(sizeEntry(input({ contract: MNQ, alert: alertWith({ quantity: 3, quantityMultiplier: '1.5' }) })), { kind: 'size', quantity: 4, note: "Sized by the source's multiplier: 3 x 1.5 = 4.5 contract(s), 4 whole." })
  // The per-order cap (5) and the budget (NQ: 2 fit) still hold.
  t.match(sizeEntry(input({ contract: MNQ, alert: alertWith({ quantity: 4, quantityMultiplier: '2' }) })), { kind: 'size', quantity: 5 })
  t.match(sizeEntry(input({ alert: alertWith({ quantity: 2, quantityMultiplier: '2' }) })), { kind: 'size', quantity: 2, note: /4 contracts would risk more than the budget of \$500\.00/ })
  t.match(sizeEntry(input({ alert: alertWith({ quantity: 3, quantityMultiplier: '0.25' }) })), { kind: 'refuse', code: 'invalid_quantity', reason: /3 x 0\.25 = 0\.75: less than one contract/ })
  t.match(sizeEntry(input({ alert: alertWith({ quantity: null, quantityMultiplier: '2' }) })), { kind: 'refuse', code: 'no_quantity' })
  t.match(sizeEntry(input({ alert: alertWith({ quantity: null, quantityMultiplier: null }) })), { kind: 'size', quantity: 2 }, 'no multiplier: the account mode')
})

t.test('the daily loss limit: soft refuses entries, hard also flattens and halts', async (t) => {
  const soft = sizeEntry(input({ account: accountWith({ balance: '49000', todayRealizedPnl: '-1000' }) }))
  t.same(soft, { kind: 'refuse', code: 'daily_loss_limit', reason: "Today's loss of $1,000.00 reached the daily loss limit of $1,000.00: no new entries this session.", flatten: false })
  const hardConfig = configWith({ dailyLossLimit: { type: 'hard' } })
  const hard = sizeEntry(input({ config: hardConfig, account: accountWith({ balance: '49400', todayRealizedPnl: '-600', openPnl: '-450' }) }))
  t.match(hard, { kind: 'refuse', code: 'daily_loss_limit_hard', flatten: true, reason: /Today's loss of \$1,050\.00 reached the hard daily loss limit of \$1,000\.00/ })
  t.match(sizeEntry(input({ config: hardConfig, account: accountWith({ haltedForSession: true }) })), { kind: 'refuse', code: 'daily_loss_limit_hard', flatten: true })
  t.match(sizeEntry(input({ config: configWith({ dailyLossLimit: { enabled: false } }), account: accountWith({ balance: '48900', todayRealizedPnl: '-1100' }) })), { kind: 'size' }, 'no limit when disabled')
})

t.test('maximum open trades, and entries in a contract already held', async (t) => {
  const es = { root: 'ES', side: 'LONG' as const, quantity: 1, entryPrice: '6000', openPnl: '0' }
  t.match(sizeEntry(input({ account: accountWith({ openTrades: [es, { ...es, root: 'CL' }, { ...es, root: 'GC' }] }) })), { kind: 'refuse', code: 'max_open_trades', reason: '3 trades are open and the limit is 3: no new entry until one closes.' })
  const nqShort = { root: 'NQ', side: 'SHORT' as const, quantity: 1, entryPrice: '21050', openPnl: '100' }
  t.match(sizeEntry(input({ account: accountWith({ openTrades: [nqShort] }) })), { kind: 'refuse', code: 'opposite_position' })
  t.match(sizeEntry(input({ account: accountWith({ openTrades: [{ ...nqShort, side: 'LONG' }] }) })), { kind: 'refuse', code: 'pyramid_limit', reason: /fixed_fraction mode does not add/ })
  // An earlier entry whose outcome is unknown counts as open, and the refusal says it is that, not a trade.
  const unconfirmed = { ...nqShort, openPnl: null, unconfirmed: true }
  t.match(sizeEntry(input({ account: accountWith({ openTrades: [unconfirmed] }) })), { kind: 'refuse', code: 'opposite_position', reason: /^An earlier SHORT NQ entry's outcome is unknown \(its order may still reach the broker\): a LONG entry could net against it/ })
  t.match(sizeEntry(input({ account: accountWith({ openTrades: [{ ...unconfirmed, side: 'LONG' }] }) })), { kind: 'refuse', code: 'pyramid_limit', reason: /^An earlier LONG NQ entry's outcome is unknown .* fixed_fraction mode does not add to positions; check the broker\.$/ })
  t.match(sizeEntry(input({ account: accountWith({ openTrades: [unconfirmed, nqShort] }) })), { kind: 'refuse', code: 'opposite_position', reason: /^A SHORT NQ trade is open/ }, 'a trade open beside it: said as before')
})

t.test('prices: the stop and the target must be on their side of the entry; an entry price is needed to check them', async (t) => {
  t.match(sizeEntry(input({ alert: alertWith({ stopPrice: '21010' }) })), { kind: 'refuse', code: 'stop_on_wrong_side', reason: 'The stop 21010 must be below the LONG entry 21000.' })
  t.match(sizeEntry(input({ alert: alertWith({ stopPrice: '21000' }) })), { kind: 'refuse', code: 'stop_on_wrong_side' }, 'a stop at the entry risks nothing and sizes nothing')
  t.match(sizeEntry(input({ alert: alertWith({ targetPrice: '20995' }) })), { kind: 'refuse', code: 'target_on_wrong_side', reason: 'The target 20995 must be above the LONG entry 21000.' })
  t.match(sizeEntry(input({ alert: alertWith({ side: 'SHORT', stopPrice: '21010', targetPrice: '21020' }) })), { kind: 'refuse', code: 'target_on_wrong_side' })
  t.match(sizeEntry(input({ alert: alertWith({ entryPrice: null }) })), { kind: 'refuse', code: 'no_entry_price' })
  t.match(sizeEntry(input({ alert: alertWith({ stopPrice: 'abc' }) })), { kind: 'refuse', code: 'invalid_price', reason: 'The alert\'s stop "abc" is not a number.' })
  // An off-tick stop is counted to the whole tick beyond it: 10.1 points -> 10.25 x $20 = $205; 500 / 205 -> 2.
  t.match(sizeEntry(input({ alert: alertWith({ stopPrice: '20989.9' }) })), { kind: 'size', quantity: 2, riskAtStop: '410.00' })
  t.match(sizeEntry(input({ contract: NQ, alert: alertWith({ side: 'SHORT', stopPrice: '21010', targetPrice: '20970' }) })), { kind: 'size', quantity: 2 })
})
