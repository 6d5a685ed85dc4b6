import t from 'tap'
import { decimalText } from '../../src/shared/decimal-text.ts'

t.test('prices become the exact decimal text of the JSON number, never exponent or float noise', async (t) => {
  t.equal(decimalText(21000.25), '21000.25')
  t.equal(decimalText(0.1), '0.1')
  t.equal(decimalText(4990.5), '4990.5')
  t.equal(decimalText(-12.75), '-12.75')
  t.equal(decimalText(1e-7), '0.0000001')
  t.equal(decimalText(2.5e21), '2500000000000000000000')
  t.equal(decimalText(0), '0')
  t.equal(decimalText(null), null)
})
