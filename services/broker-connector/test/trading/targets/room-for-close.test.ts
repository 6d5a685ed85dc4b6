import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { traderWithSource } from '../../source-helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'

const stopOf = (broker: Awaited<ReturnType<typeof traderWithSource>>['broker'], recordId: number) =>
  broker.orders().filter((order) => order.clOrdId === `sig-${recordId}.sl` && order.ordStatus === 'Working').reduce((sum, order) => sum + order.orderQty, 0)

t.test("a partial close cuts the trades its fill will close: an exit already asked first, as the fill's allocation (not the trades' id order)", async (t) => {
  const { broker, app, db } = await traderWithSource(t)
  const first = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, first)
  const a = await settledRecord(db, first.alertId)
  await openedTrade(db, a.id)
  const second = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, second)
  const b = await settledRecord(db, second.alertId)
  const tradeB = await openedTrade(db, b.id)
  await app.trading.keeper.idle()
  // B has an exit asked and not carried out yet (a source's exit waiting its turn after a refusal, say): the close's fill goes to it first.
  await db.updateTable('trades').set({ exit_requested_at: new Date() }).where('id', '=', tradeB.id).execute()
  await publishAlert(app, mnqExit({ closes: 'LONG', quantity: 1, closePart: { quantity: 1, percent: null, remaining: null } }))
  await eventually(() => netMnq(broker) === 3, 20_000)
  await eventually(async () => Number((await tradeOfRecord(db, a.id))?.quantity) + Number((await tradeOfRecord(db, b.id))?.quantity) === 3)
  await app.trading.keeper.idle()
  const heldA = Number((await tradeOfRecord(db, a.id))?.quantity)
  const heldB = Number((await tradeOfRecord(db, b.id))?.quantity)
  t.equal(heldB, 1, "the fill closed B's contract")
  t.equal(stopOf(broker, a.id), heldA, "A's stop covers A")
  t.equal(stopOf(broker, b.id), heldB, "B's stop covers B")
  t.equal(stopOf(broker, a.id) + stopOf(broker, b.id), netMnq(broker), 'the stops cover what is held')
})
