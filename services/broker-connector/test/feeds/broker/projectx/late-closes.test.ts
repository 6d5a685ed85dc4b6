import t from 'tap'
import { lateCloseRecordOf } from '../../../../src/feeds/broker/broker-adapter.ts'
import { LateCloses, type LateClose } from '../../../../src/feeds/broker/projectx/late-closes.ts'

// Stop 35 review, HIGH 2 (docs/decisions/projectx-adapter.md, "Its fill is the record's"): the order ProjectX
// places untagged for our late close is named `<entry tag>.late`, so the trade keeper gives its fill to the
// entry's record's trade alone. Only the order that fits the close due is taken for it: its contract, side and
// size, Market, created since the close was sent, and not seen before (the review of the naming).
const MNQ = 'CON.F.US.MNQ.Z26'
const sentAt = new Date('2026-11-27T15:00:00.000Z')
const at = (ms: number) => new Date(sentAt.getTime() + ms).toISOString()
const order = (id: number, fields: Record<string, unknown> = {}) => ({ id, accountId: 7000, contractId: MNQ, type: 2, side: 1, size: 1, status: 2, creationTimestamp: at(300), ...fields })
const close = (fields: Partial<LateClose> = {}): LateClose => ({ tag: 'sig-41', contractId: MNQ, side: 1, size: 1, sentAt, ...fields })

t.test('the untagged Market order of the close due (contract, side, size, created since it was sent) is named after its entry, by its id from then on', async (t) => {
  const named: [string, number][] = []
  const closes = new LateCloses((due, id) => named.push([due.tag, id]))
  closes.due(close())
  t.equal(closes.tagOf(order(1, { size: 2 })), null, 'another size is not it')
  t.equal(closes.tagOf(order(2, { side: 0 })), null, 'nor the other side')
  t.equal(closes.tagOf(order(3, { contractId: 'CON.F.US.MES.Z26' })), null, 'nor another contract')
  t.equal(closes.tagOf(order(4, { type: 1 })), null, 'nor a Limit order')
  t.equal(closes.tagOf(order(9, { creationTimestamp: at(-3_600_000) })), null, 'nor one created an hour before the close was sent')
  t.equal(closes.tagOf(order(10, { creationTimestamp: at(120_000) })), null, 'nor one created minutes after')
  t.equal(closes.tagOf(order(11, { creationTimestamp: undefined })), null, 'nor one not known when created')
  t.equal(closes.tagOf(order(5)), 'sig-41.late', 'the one that fits is the close')
  t.same(named, [['sig-41', 5]], 'its id is told, to be kept')
  t.equal(lateCloseRecordOf('sig-41.late'), 41, 'the trade keeper reads the record from it')
  t.equal(closes.tagOf(order(5, { status: 2 })), 'sig-41.late', 'known by its id when seen again')
  t.equal(closes.tagOf(order(6)), null, 'one close, one order: a second that fits is not taken')
})

t.test('an untagged order seen before the close was noted is never taken for it, even created within the clock skew allowed', async (t) => {
  const closes = new LateCloses()
  const early = order(20, { creationTimestamp: at(-2_000) })
  t.equal(closes.tagOf(early), null, "the trader's own sell of 1, listed before the close")
  closes.due(close())
  t.equal(closes.tagOf(early), null, 'listed again while the close is due: still not it')
  t.equal(closes.tagOf(order(21)), 'sig-41.late', "the close's own order is")
})

t.test('a close withdrawn (certainly not placed) takes no order', async (t) => {
  const closes = new LateCloses()
  const withdraw = closes.due(close({ tag: 'sig-42.m', side: 0, size: 2 }))
  withdraw()
  t.equal(closes.tagOf(order(7, { side: 0, size: 2 })), null, "the trader's own order of that size is left untagged")
  closes.due(close({ tag: 'sig-42.m', side: 0, size: 2 }))
  t.equal(closes.tagOf(order(8, { side: 0, size: 2 })), 'sig-42.m.late', "a remainder's entry's close is named after it")
  t.equal(lateCloseRecordOf('sig-42.m.late'), 42, "and read as the record's")
  t.equal(lateCloseRecordOf('sig-42.sl'), null, 'a leg is no late close')
})

t.test("the closes kept (the next instance's session open): one with its order named by it, one without looked for by its shape and creation time", async (t) => {
  const closes = new LateCloses()
  closes.load([
    { ...close({ tag: 'sig-43' }), orderId: 30 },
    { ...close({ tag: 'sig-44', size: 2 }), orderId: null },
  ])
  t.equal(closes.tagOf(order(30, { type: 2, size: 1 })), 'sig-43.late', 'the order kept for a close is named by its id')
  t.equal(closes.tagOf(order(31, { size: 2, creationTimestamp: at(-600_000) })), null, 'an older order of the shape of the close not seen is not it')
  t.equal(closes.tagOf(order(32, { size: 2 })), 'sig-44.late', 'the one created since it was sent is')
  closes.load([{ ...close({ tag: 'sig-44', size: 2 }), orderId: null }])
  t.equal(closes.tagOf(order(33, { size: 2 })), null, 'loaded again (another session open), a close taken in this process is not looked for twice')
})
