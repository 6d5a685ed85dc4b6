import t from 'tap'
import Type from 'typebox'
import { contract, mergeWithDefaults } from '../src/index.ts'

const Shape = contract(Type.Object({ a: Type.Integer({ minimum: 0 }), b: Type.Boolean() }, { additionalProperties: false }))
const defaults = { a: 1, b: false }

t.test('a fitting value is kept; otherwise the defaults with each still-fitting field taken over', async (t) => {
  t.same(mergeWithDefaults(Shape, { a: 5, b: true }, defaults), { a: 5, b: true })
  t.same(mergeWithDefaults(Shape, { a: -3, b: true, extra: 1 }, defaults), { a: 1, b: true }, 'bad field and unknown field dropped')
  t.same(mergeWithDefaults(Shape, 'garbage', defaults), defaults)
  t.same(defaults, { a: 1, b: false }, 'the defaults are not changed')
})
