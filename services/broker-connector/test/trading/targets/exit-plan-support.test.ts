import t from 'tap'
import { exitPlanRefusal } from '../../../src/trading/targets/exit-plan-support.ts'

const plan = { targets: [{ price: 21020, quantity: null }, { price: 21040, quantity: null }], breakeven: { offsetTicks: 0 } }
const place = async () => ({ targetOrderId: 1, stopOrderId: 2 })
const reprice = async () => {}

t.test('an entry with several targets is refused, with the reason, where the broker connection cannot carry them out', async (t) => {
  t.equal(exitPlanRefusal({}, null), null, 'no plan: nothing to refuse')
  t.match(exitPlanRefusal({}, plan), /cannot place several targets/)
  t.match(exitPlanRefusal({ placeTargetPair: place }, plan), /cannot move a working stop/)
  t.equal(exitPlanRefusal({ placeTargetPair: place }, { ...plan, breakeven: null }), null)
  t.equal(exitPlanRefusal({ placeTargetPair: place, repriceOrder: reprice }, plan), null)
})
