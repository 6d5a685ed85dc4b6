import t from 'tap'
import { absolute, add, compare, floorDivide, maximum, minimum, parseDecimal, percentOf, toFixed, toPlain } from '../src/index.ts'

const d = parseDecimal

t.test('add and compare across scales', async (t) => {
  t.equal(toPlain(add(d('0.1'), d('0.2'))), '0.3')
  t.equal(toPlain(add(d('-1.25'), d('1'))), '-0.25')
  t.equal(compare(d('1.50'), d('1.5')), 0)
  t.equal(compare(d('-0.01'), d('0')), -1)
  t.equal(compare(d('100'), d('99.999')), 1)
  t.equal(toPlain(minimum(d('500'), d('486.5'), d('1000'))), '486.5')
  t.equal(toPlain(maximum(d('-3'), d('-2.5'))), '-2.5')
  t.equal(toPlain(absolute(d('-7.25'))), '7.25')
})

t.test('floorDivide is floor division on exact decimals', async (t) => {
  t.equal(floorDivide(d('500'), d('200')), 2n, '2.5 -> 2')
  t.equal(floorDivide(d('400'), d('200')), 2n, 'exact')
  t.equal(floorDivide(d('0.3'), d('0.1')), 3n, 'no float error')
  t.equal(floorDivide(d('-1'), d('0.25')), -4n)
  t.equal(floorDivide(d('-1.1'), d('0.25')), -5n, 'rounds down for negatives')
  t.equal(floorDivide(d('199.99'), d('200')), 0n)
  t.throws(() => floorDivide(d('1'), d('0')), RangeError)
})

t.test('percentOf and plain text', async (t) => {
  t.equal(toFixed(percentOf(d('50000'), d('1')), 2), '500.00')
  t.equal(toFixed(percentOf(d('600'), d('90')), 2), '540.00')
  t.equal(toPlain(percentOf(d('48600'), d('0.01'))), '4.86')
  t.equal(toPlain(d('12.500')), '12.5')
  t.equal(toPlain(d('-3.000')), '-3')
  t.equal(toPlain(d('0.00')), '0')
})
