import t from 'tap'
import { entryOrderFields, sizingPriceOf } from '../../../src/trading/entry/entry-order-plan.ts'

const market = { entryType: 'Market', entryPrice: '21000', stopPrice: '20950.00', targetPrice: null } as const
const limit = { ...market, entryType: 'Limit', entryPrice: '20990.00' } as const

t.test('stop and stop-limit entries on the tick grid, never entering earlier or paying more than asked', async (t) => {
  t.same(entryOrderFields({ type: 'stop', stopPrice: 21010.1, timeInForce: null }, 'LONG', market, '21010.1', '0.25'), { entryType: 'Stop', entryPrice: null, entryStopPrice: '21010.25', timeInForce: 'Day' })
  t.same(entryOrderFields({ type: 'stop', stopPrice: 20989.9, timeInForce: 'GTC' }, 'SHORT', market, null, '0.25'), { entryType: 'Stop', entryPrice: null, entryStopPrice: '20989.75', timeInForce: 'GTC' })
  const stopLimit = entryOrderFields({ type: 'stop_limit', stopPrice: 21010, timeInForce: 'IOC' }, 'LONG', market, '21012.4', '0.25')
  t.same(stopLimit, { entryType: 'StopLimit', entryPrice: '21012.25', entryStopPrice: '21010.00', timeInForce: 'IOC' })
  t.equal(sizingPriceOf(stopLimit), '21012.25', 'a stop-limit is sized at its limit')
  t.equal(sizingPriceOf(entryOrderFields({ type: 'stop', stopPrice: 21010, timeInForce: null }, 'LONG', market, null, '0.25')), '21010.00', 'a stop at its trigger')
})

t.test('market and limit entries keep their plan; only the time in force is added', async (t) => {
  t.same(entryOrderFields({ type: 'limit', stopPrice: null, timeInForce: 'FOK' }, 'LONG', limit, '20990', '0.25'), { entryType: 'Limit', entryPrice: '20990.00', timeInForce: 'FOK' })
  t.same(entryOrderFields({ type: 'market', stopPrice: null, timeInForce: 'GTC' }, 'LONG', market, null, '0.25'), { entryType: 'Market', entryPrice: null, timeInForce: 'GTC' })
  t.equal(sizingPriceOf(entryOrderFields({ type: 'market', stopPrice: null, timeInForce: 'GTC' }, 'LONG', market, null, '0.25')), null, 'sized as the plan says')
  t.equal(entryOrderFields(null, 'LONG', market, null, '0.25'), null)
})
