import t from 'tap'
import { tradeCommissions, type CommissionTrade } from '../../../src/pages/broker-view/trade-commissions.ts'

const base: CommissionTrade = { id: 1, parentTradeId: null, contract: 'MNQZ6', side: 'LONG', quantity: '3', status: 'open', pnl: null, entryFillIds: ['10'] }

t.test('a trade and its closed part share the entry fill by quantity; each pays its own exit fills', async (t) => {
  // 5 bought in fill 10 ($2.60); 2 sold in fill 11 ($1.04) closed part 2; 3 remain open on trade 1.
  const trades = [base, { ...base, id: 2, parentTradeId: 1, quantity: '2', status: 'closed', pnl: '100.00', entryFillIds: [] }]
  const fills = new Map([[10, 5], [11, 2]])
  const fees = new Map([[10, '2.60'], [11, '1.04']])
  const [open, part] = tradeCommissions(trades, [{ tradeId: 2, fillId: 11, quantity: 2 }], fills, fees)
  t.match(open, { tradeId: '1', commission: '1.56', pnl: null, netPnl: null }, '3/5 of the entry fee, still open: no net pnl')
  t.match(part, { tradeId: '2', commission: '2.08', pnl: '100.00', netPnl: '97.92' }, '2/5 of the entry fee ($1.04) and its exit fill ($1.04)')
})

t.test('a fill shared by two trades is split by the contracts each took, to the cent', async (t) => {
  const trades = [{ ...base, quantity: '1', status: 'closed', pnl: '10', entryFillIds: ['20'] }]
  const [one] = tradeCommissions(trades, [{ tradeId: 1, fillId: 21, quantity: 1 }], new Map([[20, 1], [21, 3]]), new Map([[20, '0.52'], [21, '1.00']]))
  t.match(one, { commission: '0.85', netPnl: '9.15' }, '$0.52 entry + a third of $1.00 (0.33) = $0.85')
})

t.test('unknown when a fill is not listed today or has no fee', async (t) => {
  const [older] = tradeCommissions([{ ...base, entryFillIds: ['30'] }], [], new Map(), new Map())
  t.match(older, { commission: null, netPnl: null }, 'the entry fill is from an earlier day')
  const [unpriced] = tradeCommissions([{ ...base, status: 'closed', pnl: '5', entryFillIds: ['10'] }], [{ tradeId: 1, fillId: 11, quantity: 3 }], new Map([[10, 3], [11, 3]]), new Map([[10, '1.56']]))
  t.match(unpriced, { commission: null, pnl: '5', netPnl: null }, 'the exit fill has no fee')
  const [noFills] = tradeCommissions([{ ...base, entryFillIds: [] }], [], new Map(), new Map())
  t.equal(noFills?.commission, null, 'a trade without broker fills')
})
