import t from 'tap'
import { bracketPrice } from '../../src/parsing/brackets.ts'

const long = { side: 'LONG', entryPrice: 100 } as const
const short = { side: 'SHORT', entryPrice: 100 } as const

t.test('plain prices; 0 or less is no bracket', async (t) => {
  t.equal(bracketPrice(95.5, 'stopLoss', long), 95.5)
  t.equal(bracketPrice('95.5', 'stopLoss', long), 95.5)
  t.equal(bracketPrice(0, 'stopLoss', long), null)
  t.equal(bracketPrice('0', 'takeProfit', long), null)
  t.equal(bracketPrice('{{plot_0}}', 'takeProfit', long), null, 'placeholders are refused earlier; here they are no price')
})

t.test('TradersPost objects: absolute and relative to the entry price, on both sides', async (t) => {
  t.equal(bracketPrice({ type: 'stop', stopPrice: 90 }, 'stopLoss', long), 90)
  t.equal(bracketPrice({ limitPrice: 110 }, 'takeProfit', long), 110)
  t.equal(bracketPrice({ type: 'stop', amount: 10 }, 'stopLoss', long), 90)
  t.equal(bracketPrice({ amount: 10 }, 'stopLoss', short), 110)
  t.equal(bracketPrice({ percent: 10 }, 'takeProfit', long), 110)
  t.equal(bracketPrice({ percent: '10' }, 'takeProfit', short), 90)
  t.equal(bracketPrice({ percent: 5 }, 'stopLoss', { side: 'LONG', entryPrice: 143.12 }), 135.964, 'rounded to 8 decimals, no float noise')
  t.equal(bracketPrice({ type: 'stop' }, 'stopLoss', long), null, 'an object with no price is no bracket')
  t.equal(bracketPrice({ percent: 5 }, 'stopLoss', { side: null, entryPrice: null }), null, 'a result places nothing')
})

t.test('refusals', async (t) => {
  t.throws(() => bracketPrice({ percent: 5 }, 'stopLoss', { side: 'LONG', entryPrice: null }), /stopLoss\.percent is relative to the entry price.*cannot be placed/)
  t.throws(() => bracketPrice({ amount: 5 }, 'takeProfit', { side: 'SHORT', entryPrice: null }), /takeProfit\.amount is relative.*the target cannot be placed.*takeProfit\.limitPrice/)
  t.throws(() => bracketPrice({ stopPrice: 90, amount: 5 }, 'stopLoss', long), /stopLoss gives both stopprice and amount; send one/)
  t.throws(() => bracketPrice({ type: 'trailing_stop', trailPercent: 1 }, 'stopLoss', long), /trailing stops are not supported/)
  t.throws(() => bracketPrice({ pnlAmount: 100 }, 'takeProfit', long), /pnlAmount \(a profit in dollars\) is not supported/)
  t.throws(() => bracketPrice({ percent: -5 }, 'stopLoss', long), /stopLoss\.percent must be a positive number/)
  t.throws(() => bracketPrice({ amount: 150 }, 'stopLoss', long), /stopLoss works out at -50, below zero/)
})
