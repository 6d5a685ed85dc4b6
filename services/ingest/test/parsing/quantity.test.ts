import t from 'tap'
import { extractFields } from '../../src/parsing/fields.ts'
import type { Intent } from '../../src/parsing/intent.ts'
import { quantityOf } from '../../src/parsing/quantity.ts'

const entry: Intent = { kind: 'entry', side: 'LONG', reversal: false }
const reversal: Intent = { kind: 'entry', side: 'SHORT', reversal: true }
const exit: Intent = { kind: 'result', result: 'Exit', closes: 'LONG', orderSide: 'SHORT' }
const quantity = (record: Record<string, unknown>, intent: Intent = entry) => quantityOf(extractFields(record), intent)

t.test('the names senders use for a size', async (t) => {
  t.equal(quantity({ quantity: 2 }), 2)
  t.equal(quantity({ contracts: '3' }), 3)
  t.equal(quantity({ qty: 1.5 }), 1.5)
  t.equal(quantity({ size: '4' }), 4)
  t.equal(quantity({ orderQty: 5 }), 5)
  t.equal(quantity({ 'strategy.order.contracts': '6' }), 6)
  t.equal(quantity({ order: { amount: '7', currency_type: 'base' } }), 7, '3Commas order.amount in base units')
  t.equal(quantity({ quantity: 8, quantityType: 'fixed_quantity' }), 8)
  t.equal(quantity({}), null)
  t.equal(quantity({ quantity: 0 }), null, '0: not given (PickMyTrade sizes by risk)')
})

t.test('refused on an entry, dropped on a result', async (t) => {
  t.throws(() => quantity({ quantity: -1 }), /quantity must be a positive number of contracts/)
  t.throws(() => quantity({ quantity: 'lots' }), /quantity must be a positive number of contracts/)
  t.throws(() => quantity({ quantity: 100, quantityType: 'dollar_amount' }), /quantity in "dollar_amount" is not supported/)
  t.throws(() => quantity({ order: { amount: '100', currency_type: 'quote' } }), /quantity in "quote" is not supported/)
  t.equal(quantity({ quantity: 'lots' }, exit), null)
  t.equal(quantity({ quantity: 100, quantityType: 'percent_of_position' }, exit), null)
  t.equal(quantity({ quantity: 2 }, exit), 2)
})

t.test('a reversal uses the new position size, not the order contracts', async (t) => {
  t.equal(quantity({ contracts: 2, market_position_size: 1 }, reversal), 1)
  t.equal(quantity({ contracts: 2, 'strategy.position_size': -1 }, reversal), 1, 'a signed position size')
  t.equal(quantity({ contracts: 2 }, reversal), null, 'no position size: none rather than a doubled one')
})
