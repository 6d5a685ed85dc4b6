import t from 'tap'
import { exitPlanRefusal } from '../../src/targets/exit-plan-support.ts'

const plan = { targets: [{ price: 21020, quantity: null }, { price: 21040, quantity: null }], breakeven: { offsetTicks: 0 } }
const place = async () => ({ orderId: 1 })
const reprice = async () => {}

t.test('an entry with several targets is refused, with the reason, where the broker connection cannot carry them out', async (t) => {
  t.equal(exitPlanRefusal({}, null), null, 'no plan: nothing to refuse')
  t.match(exitPlanRefusal({}, plan), /cannot place several targets/)
  t.match(exitPlanRefusal({ placeTargetOrder: place }, plan), /cannot move a working stop/)
  t.equal(exitPlanRefusal({ placeTargetOrder: place }, { ...plan, breakeven: null }), null)
  t.equal(exitPlanRefusal({ placeTargetOrder: place, repriceOrder: reprice }, plan), null)
})
