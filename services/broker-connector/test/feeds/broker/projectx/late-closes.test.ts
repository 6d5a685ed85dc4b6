import t from 'tap'
import { lateCloseRecordOf } from '../../../../src/feeds/broker/broker-adapter.ts'
import { LateCloses } from '../../../../src/feeds/broker/projectx/late-closes.ts'

// Stop 35 review, HIGH 2 (docs/decisions/projectx-adapter.md, "Its fill is the record's"): the order ProjectX
// places untagged for our late close is named `<entry tag>.late`, so the trade keeper gives its fill to the
// entry's record's trade alone. Only the order that fits the close due is taken for it.
const MNQ = 'CON.F.US.MNQ.Z26'
const order = (id: number, fields: Record<string, unknown> = {}) => ({ id, accountId: 7000, contractId: MNQ, type: 2, side: 1, size: 1, status: 2, ...fields })

t.test('the untagged Market order of the close due (contract, side, size) is named after its entry, by its id from then on', async (t) => {
  const closes = new LateCloses()
  closes.due({ tag: 'sig-41', contractId: MNQ, side: 1 }, 1)
  t.equal(closes.tagOf(order(1, { size: 2 })), null, 'another size is not it')
  t.equal(closes.tagOf(order(2, { side: 0 })), null, 'nor the other side')
  t.equal(closes.tagOf(order(3, { contractId: 'CON.F.US.MES.Z26' })), null, 'nor another contract')
  t.equal(closes.tagOf(order(4, { type: 1 })), null, 'nor a Limit order')
  t.equal(closes.tagOf(order(5)), 'sig-41.late', 'the one that fits is the close')
  t.equal(lateCloseRecordOf('sig-41.late'), 41, "the trade keeper reads the record from it")
  t.equal(closes.tagOf(order(5, { status: 2 })), 'sig-41.late', 'known by its id when seen again')
  t.equal(closes.tagOf(order(6)), null, 'one close, one order: a second that fits is not taken')
})

t.test('a close withdrawn (certainly not placed) takes no order', async (t) => {
  const closes = new LateCloses()
  const withdraw = closes.due({ tag: 'sig-42.m', contractId: MNQ, side: 0 }, 2)
  withdraw()
  t.equal(closes.tagOf(order(7, { side: 0, size: 2 })), null, 'the trader\'s own order of that size is left untagged')
  closes.due({ tag: 'sig-42.m', contractId: MNQ, side: 0 }, 2)
  t.equal(closes.tagOf(order(8, { side: 0, size: 2 })), 'sig-42.m.late', "a remainder's entry's close is named after it")
  t.equal(lateCloseRecordOf('sig-42.m.late'), 42, "and read as the record's")
  t.equal(lateCloseRecordOf('sig-42.sl'), null, 'a leg is no late close')
})
