import t from 'tap'
import { sizeEntry } from '../src/index.ts'
import { accountWith, alertWith, configWith, input, MNQ } from './fixtures.ts'

t.test('verification: after the target with the trading days done, the evaluation is passed and entries stop', async (t) => {
  const passed = sizeEntry(input({ account: accountWith({ balance: '53100', peakBalance: '53100', tradingDays: 5 }) }))
  t.same(passed, {
    kind: 'refuse',
    code: 'evaluation_passed',
    reason: 'The evaluation is passed (profit $3,100.00 of a $3,000.00 target over 5 of 5 trading days): no new entries until the phase is set to funded.',
    flatten: false,
  })
  t.match(sizeEntry(input({ config: configWith({ verification: { phase: 'funded' } }), account: accountWith({ balance: '53100', peakBalance: '53100', tradingDays: 5 }) })), { kind: 'size' }, 'funded accounts trade on')
  t.match(sizeEntry(input({ config: configWith({ verification: { profitTarget: 0 } }), account: accountWith({ balance: '53100', peakBalance: '53100', tradingDays: 5 }) })), { kind: 'size' }, 'a zero target means no target')
})

t.test('verification: after the target with trading days missing, one contract whose stop cannot undo the pass', async (t) => {
  const account = accountWith({ balance: '53300', peakBalance: '53300', tradingDays: 3 })
  // MNQ: budget is min(533, room, 1000, cushion 300); 300 / 20 = 15 but one contract after the target.
  t.same(sizeEntry(input({ account, contract: MNQ })), { kind: 'size', quantity: 1, budget: '300.00', riskAtStop: '20.00', note: 'The evaluation target is met: one contract a trade until the trading days are done.' })
  // NQ with a 20-point stop: $400 > $300 of profit above the target.
  t.match(sizeEntry(input({ account, alert: alertWith({ stopPrice: '20980' }) })), { kind: 'refuse', code: 'profit_target_protection', reason: /One contract would lose \$400\.00 at the stop \(20 points x \$20\.00\), more than the budget of \$300\.00 \(the profit above the evaluation's target\)\./ })
  const fixed = configWith({ riskMode: { mode: 'fixed_contracts', fixedContracts: 3 } })
  t.same(sizeEntry(input({ config: fixed, account, contract: MNQ })), { kind: 'size', quantity: 1, budget: null, riskAtStop: '20.00', note: 'The evaluation target is met: one contract a trade until the trading days are done.' })
  t.match(sizeEntry(input({ config: fixed, account, alert: alertWith({ stopPrice: null, targetPrice: null }) })), { kind: 'refuse', code: 'no_stop', reason: /until the trading days are done an entry needs a stop/ })
})

t.test("consistency: once today's profit is the allowed share, no new entries this session", async (t) => {
  const config = configWith({ consistencyRule: { enabled: true, maxBestDayPercent: 30 } })
  // Evaluation below target: the share is of the $3,000 target -> $900 a day.
  t.match(sizeEntry(input({ config, account: accountWith({ balance: '50899', todayRealizedPnl: '899' }) })), { kind: 'size' }, '$899 is under $900')
  t.same(sizeEntry(input({ config, account: accountWith({ balance: '50900', todayRealizedPnl: '900' }) })), {
    kind: 'refuse',
    code: 'consistency',
    reason: "Today's profit of $900.00 reached 30% of $3,000.00 ($900.00), the most one day may make under the consistency rule: no new entries this session.",
    flatten: false,
  })
  // Open profit counts: 700 realized + 250 open.
  t.match(sizeEntry(input({ config, account: accountWith({ balance: '50700', todayRealizedPnl: '700', openPnl: '250', openTrades: [{ root: 'ES', side: 'LONG', quantity: 1, entryPrice: '6000', openPnl: '250' }] }) })), { kind: 'refuse', code: 'consistency' })
  // Funded with $10,000 total profit: 30% = $3,000 a day.
  const funded = configWith({ consistencyRule: { enabled: true, maxBestDayPercent: 30 }, verification: { phase: 'funded' } })
  t.match(sizeEntry(input({ config: funded, account: accountWith({ balance: '60000', peakBalance: '60000', todayRealizedPnl: '2999' }) })), { kind: 'size' })
  t.match(sizeEntry(input({ config: funded, account: accountWith({ balance: '60000', peakBalance: '60000', todayRealizedPnl: '3000' }) })), { kind: 'refuse', code: 'consistency', reason: /30% of \$10,000\.00 \(\$3,000\.00\)/ })
  t.match(sizeEntry(input({ account: accountWith({ balance: '50900', todayRealizedPnl: '900' }) })), { kind: 'size' }, 'rule off by default')
})

t.test('payout security does not gate entries', async (t) => {
  const config = configWith({ payoutSecurity: { enabled: true, minBalanceAboveStart: 2100 }, verification: { phase: 'funded' } })
  t.match(sizeEntry(input({ config, account: accountWith({ balance: '50500', peakBalance: '50500' }) })), { kind: 'size', quantity: 2 })
})

t.test('the drawdown floor: equity at or under it refuses, the lock stops it rising', async (t) => {
  t.same(sizeEntry(input({ account: accountWith({ balance: '48100', openPnl: '-100', openTrades: [{ root: 'ES', side: 'LONG', quantity: 1, entryPrice: '6000', openPnl: '-100' }] }) })), {
    kind: 'refuse',
    code: 'drawdown_floor',
    reason: "The account's equity of $48,000.00 is at or below the drawdown floor of $48,000.00: no new entries.",
    flatten: false,
  })
  // Peak 53,000 -> floor 51,000, but locked at 50,100: room at 51,500 is 1,400, less 10% = 1,260.
  const locked = configWith({ trailingDrawdown: { stopTrailingAtBalance: 50_100 }, verification: { phase: 'funded' } })
  t.match(sizeEntry(input({ config: locked, account: accountWith({ balance: '50400', peakBalance: '53000' }) })), { kind: 'size', budget: '270.00' }, '(50,400 - 50,100) x 0.9')
  // Peak 53,000 -> floor 51,000 without a lock: at 51,100 the room is 100, less 10% = 90 < $200 for one NQ contract.
  t.match(sizeEntry(input({ config: configWith({ verification: { phase: 'funded' } }), account: accountWith({ balance: '51100', peakBalance: '53000' }) })), { kind: 'refuse', code: 'drawdown_floor', reason: /\$90\.00 \(the \$100\.00 above the \$51,000\.00 drawdown floor less the 10% safety buffer\)/ })
})
