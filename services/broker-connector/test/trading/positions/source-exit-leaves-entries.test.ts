import t from 'tap'
import { Durables } from '../../../src/intake/plugin.ts'
import { drained, eventually, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord } from '../../trading-helper.ts'
import { closedTrade, mnqExit, netMnq, openedTrade } from './exit-helper.ts'
import { traderWithSource } from '../../source-helper.ts'

/** Issue 22 item 4: a source's exit, alone in the position, never cancels another source's working entry. */
t.test("a source's exit with nothing else open closes its quantity; the spec route's resting entry keeps working", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)
  const fromHouse = mnqEntry({ userId: null, sourceId: house })
  await publishAlert(app, fromHouse)
  const houseRecord = await settledRecord(db, fromHouse.alertId)
  const houseTrade = await openedTrade(db, houseRecord.id)
  const resting = mnqEntry({ userId: 'u-0', entryPrice: 20900, sl: 20850, tp: 21000, raw: { orderType: 'limit' } })
  await publishAlert(app, resting)
  const restingRecord = await settledRecord(db, resting.alertId)
  t.equal(restingRecord.status, 'placed')
  const entryOrder = () => broker.orders().find((order) => order.clOrdId === `sig-${restingRecord.id}`)
  t.equal(entryOrder()?.ordStatus, 'Working')

  broker.setPrice('MNQZ6', '21010')
  await publishAlert(app, mnqExit({ sourceId: house, result: 'TP', exitPrice: 21010 }))
  t.match(await closedTrade(db, houseRecord.id), { result: 'TP', quantity: houseTrade.quantity }, "the source's trade closes at its fill")
  await drained(app, 'ALERTS', Durables.result)
  await app.trading.flattens.idle()
  await eventually(() => netMnq(broker) === 0)
  t.equal(entryOrder()?.ordStatus, 'Working', "the spec route's entry still works")
  // The legs are cancelled once the close's fill has reached the trade keeper: waited for, not assumed.
  const workingLegs = () => broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${houseRecord.id}.`) && order.ordStatus === 'Working').length
  await eventually(() => workingLegs() === 0)
  t.equal(workingLegs(), 0, "the source's legs are gone")
  t.match(await db.selectFrom('alerts').select(['status', 'reason']).where('id', '=', restingRecord.id).executeTakeFirstOrThrow(), { status: 'placed', reason: null })
})
