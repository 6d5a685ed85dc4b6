import t from 'tap'
import { antiMartingaleContracts, sizeEntry } from '../src/index.ts'
import { accountWith, alertWith, configWith, input, MNQ } from './fixtures.ts'

const steps = { baseContracts: 1, maxContracts: 4, winsToStepUp: 2, lossesToStepDown: 1, stepContracts: 1, pyramidLevels: 2 }

t.test('steps up after winsToStepUp wins, down after lossesToStepDown losses, within base and max', async (t) => {
  t.equal(antiMartingaleContracts(steps, ''), 1, 'no history: base')
  t.equal(antiMartingaleContracts(steps, 'W'), 1, 'one win is not two')
  t.equal(antiMartingaleContracts(steps, 'WW'), 2, 'two wins: one step up')
  t.equal(antiMartingaleContracts(steps, 'WWWW'), 3)
  t.equal(antiMartingaleContracts(steps, 'WWWWWWWWWW'), 4, 'capped at maxContracts')
  t.equal(antiMartingaleContracts(steps, 'WWWWL'), 2, 'a loss steps down one')
  t.equal(antiMartingaleContracts(steps, 'WWWWLL'), 1)
  t.equal(antiMartingaleContracts(steps, 'LLLL'), 1, 'never below base')
  t.equal(antiMartingaleContracts(steps, 'WLWLW'), 1, 'an interrupted run does not step up')
  t.equal(antiMartingaleContracts({ ...steps, baseContracts: 2, stepContracts: 3, maxContracts: 10, lossesToStepDown: 2 }, 'WWWWLWL'), 8, '2 +3 +3, and single losses between wins never reach two')
})

t.test('anti_martingale_pyramiding sizes from the run and still respects the stop limits', async (t) => {
  const config = configWith({ riskMode: { mode: 'anti_martingale_pyramiding' }, antiMartingale: steps })
  t.same(sizeEntry(input({ config, contract: MNQ, account: accountWith({ closedResults: 'WWWW' }) })), { kind: 'size', quantity: 3, budget: null, riskAtStop: '60.00', note: null }, '3 x 10 pts x $2')
  t.match(sizeEntry(input({ config, account: accountWith({ balance: '48500', closedResults: 'WWWW' }) })), { kind: 'refuse', code: 'drawdown_floor' }, '3 x $200 = $600 > $500 above the floor')
})

t.test('pyramiding adds levels only to a winning position, up to pyramidLevels', async (t) => {
  const config = configWith({ riskMode: { mode: 'anti_martingale_pyramiding' }, antiMartingale: steps, limits: { maxOpenTrades: 5 } })
  const level = (openPnl: string | null) => ({ root: 'MNQ', side: 'LONG' as const, quantity: 1, entryPrice: '20990', openPnl })
  const account = (...trades: ReturnType<typeof level>[]) => accountWith({ openTrades: trades, openPnl: '0' })
  t.match(sizeEntry(input({ config, contract: MNQ, account: account(level('40')) })), { kind: 'size', quantity: 1 }, 'first addition to a winner')
  t.match(sizeEntry(input({ config, contract: MNQ, account: account(level('40'), level('10')) })), { kind: 'size', quantity: 1 }, 'second addition')
  t.match(sizeEntry(input({ config, contract: MNQ, account: account(level('40'), level('10'), level('5')) })), { kind: 'refuse', code: 'pyramid_limit', reason: /3 LONG MNQ trades are open, the first entry and 2 added levels, and pyramidLevels allows 2 additions\./ })
  t.match(sizeEntry(input({ config, contract: MNQ, account: account(level('40'), level('-50')) })), { kind: 'refuse', code: 'pyramid_limit', reason: /is at -\$10\.00, not winning/ })
  t.match(sizeEntry(input({ config, contract: MNQ, account: account(level(null)) })), { kind: 'refuse', code: 'pyramid_limit', reason: /not known/ })
  const noPyramid = configWith({ riskMode: { mode: 'anti_martingale_pyramiding' }, antiMartingale: { ...steps, pyramidLevels: 0 } })
  t.match(sizeEntry(input({ config: noPyramid, contract: MNQ, account: account(level('40')) })), { kind: 'refuse', code: 'pyramid_limit' })
  t.match(sizeEntry(input({ config, contract: MNQ, alert: alertWith({ side: 'SHORT', stopPrice: '21010', targetPrice: '20970' }), account: account(level('40')) })), { kind: 'refuse', code: 'opposite_position' })
  // The account allowing adds (positionChanges.pyramiding) does not lift the mode's own rules (review finding).
  const allowing = configWith({ riskMode: { mode: 'anti_martingale_pyramiding' }, antiMartingale: steps, limits: { maxOpenTrades: 5 }, positionChanges: { reversals: 'refuse', pyramiding: 'allow' } })
  t.match(sizeEntry(input({ config: allowing, contract: MNQ, account: account(level('40'), level('10'), level('5')) })), { kind: 'refuse', code: 'pyramid_limit', reason: /pyramidLevels allows 2 additions/ }, 'adds allowed: still no more than pyramidLevels')
  t.match(sizeEntry(input({ config: allowing, contract: MNQ, account: account(level('40'), level('-50')) })), { kind: 'refuse', code: 'pyramid_limit', reason: /not winning/ }, 'adds allowed: still only to a winner')
  t.match(sizeEntry(input({ config: allowing, contract: MNQ, account: account(level('40')) })), { kind: 'size', quantity: 1 })
})
