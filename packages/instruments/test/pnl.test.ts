import t from 'tap'
import { computePnl, parseDecimal, toFixed } from '../src/index.ts'

t.test('pnl for a long and a short, exact to the cent', async (t) => {
  t.equal(computePnl({ side: 'LONG', entryPrice: '21000.25', exitPrice: '21010.75', quantity: '2', pointValue: '20' }), '420.00')
  t.equal(computePnl({ side: 'SHORT', entryPrice: '21000.25', exitPrice: '21010.75', quantity: '2', pointValue: '20' }), '-420.00')
  t.equal(computePnl({ side: 'SHORT', entryPrice: '5000', exitPrice: '4990.5', quantity: '1', pointValue: '50' }), '475.00')
  t.equal(computePnl({ side: 'LONG', entryPrice: '71.23', exitPrice: '71.1', quantity: '3', pointValue: '1000' }), '-390.00')
  t.equal(computePnl({ side: 'LONG', entryPrice: 0.1, exitPrice: 0.3, quantity: 1, pointValue: 1 }), '0.20', 'no float error')
  t.equal(computePnl({ side: 'LONG', entryPrice: '42000', exitPrice: '42000', quantity: '1', pointValue: '0.5' }), '0.00')
  t.equal(computePnl({ side: 'LONG', entryPrice: '100', exitPrice: '100.005', quantity: '1', pointValue: '1' }), '0.01', 'half rounds away from zero')
  t.equal(computePnl({ side: 'SHORT', entryPrice: '100', exitPrice: '100.005', quantity: '1', pointValue: '1' }), '-0.01')
})

t.test('decimal parsing refuses what is not a number', async (t) => {
  t.throws(() => parseDecimal('12a'), RangeError)
  t.throws(() => parseDecimal(Number.NaN), RangeError)
  t.equal(toFixed(parseDecimal('-0.004'), 2), '0.00')
  t.equal(toFixed(parseDecimal(1e-7), 8), '0.00000010')
})
