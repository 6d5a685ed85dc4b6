import t from 'tap'
import { applyFill, netPos, netPrice, type PositionState } from '../src/position-book.ts'

const flat = (): PositionState => ({ accountId: 1, contractId: 2, lots: [], bought: 0, boughtValue: '0', sold: 0, soldValue: '0' })

t.test('fills against a position close the oldest lots first and realize exact pnl; the rest opens the other side', async (t) => {
  const state = flat()
  t.equal(applyFill(state, 'Buy', 1, '100.25', '20'), '0.00')
  t.equal(applyFill(state, 'Buy', 1, '110', '20'), '0.00')
  t.equal(netPos(state), 2)
  t.equal(netPrice(state), 105.125)
  // closes the 100.25 lot: 19.75 x 20
  t.equal(applyFill(state, 'Sell', 1, '120', '20'), '395.00')
  // closes the 110 lot (-5 x 20) and opens a short of 1 at 105
  t.equal(applyFill(state, 'Sell', 2, '105', '20'), '-100.00')
  t.equal(netPos(state), -1)
  t.equal(netPrice(state), 105)
  // the short made 5 x 20
  t.equal(applyFill(state, 'Buy', 1, '100', '20'), '100.00')
  t.equal(netPos(state), 0)
  t.equal(netPrice(state), undefined)
  t.same([state.bought, state.sold, state.boughtValue, state.soldValue], [3, 3, '310.25000000', '330.00000000'])
})
