import t from 'tap'
import { splitTargets } from '../../../src/trading/targets/split-targets.ts'

const three = [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 1 }, { price: 21080, quantity: 1 }]

t.test('quantities that add up to the sized quantity are kept', async (t) => {
  t.same(splitTargets(three, 4), { targets: [{ level: 1, price: '21020', quantity: 2 }, { level: 2, price: '21040', quantity: 1 }, { level: 3, price: '21080', quantity: 1 }], note: null })
})

t.test('sized differently: scaled in proportion, every contract placed once, the total never exceeded', async (t) => {
  const eight = splitTargets(three, 8)
  t.same(eight.targets.map((target) => target.quantity), [4, 2, 2])
  t.match(eight.note, /scaled from 4 to the 8 contracts sized/)
  for (let total = 1; total <= 40; total++) {
    const split = splitTargets(three, total)
    t.equal(split.targets.reduce((sum, target) => sum + target.quantity, 0), total, `${total}: all placed, no more`)
    t.ok(split.targets.every((target) => target.quantity >= 1), `${total}: no target of 0`)
  }
})

t.test('a target rounding to 0 contracts is merged into the next, and the record says so', async (t) => {
  const two = splitTargets(three, 2)
  t.same(two.targets, [{ level: 1, price: '21020', quantity: 1 }, { level: 2, price: '21040', quantity: 1 }])
  t.match(two.note, /TP3 rounded to 0 contracts and was merged into TP2/)
  const one = splitTargets([{ price: 21020, quantity: null }, { price: 21040, quantity: null }], 1)
  t.same(one.targets, [{ level: 1, price: '21020', quantity: 1 }])
  t.match(one.note, /TP2 rounded to 0 contracts and was merged into TP1/)
})

t.test('without quantities each target takes an equal share, the nearer ones the rest', async (t) => {
  t.same(splitTargets([{ price: 1, quantity: null }, { price: 2, quantity: null }, { price: 3, quantity: null }], 5).targets.map((target) => target.quantity), [2, 2, 1])
  t.equal(splitTargets([{ price: 1, quantity: null }, { price: 2, quantity: null }], 4).note, null, 'an even split needs no note')
})
