import t from 'tap'
import { Durables } from '../../../src/intake/plugin.ts'
import { drained, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { traderWithSource } from '../../source-helper.ts'
import { closedTrade, mnqExit, netMnq, openedTrade } from './exit-helper.ts'

/** Issue 22 item 4 at the broker: a source's exit closes its own trades there, never the same trader's others. */
t.test("a source's exit closes only its trade at the broker; the spec route's trade keeps its quantity and bracket", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)

  const spec = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  const fromHouse = mnqEntry({ userId: null, sourceId: house, sl: 20900, tp: 21200 })
  await publishAlert(app, fromHouse)
  const houseRecord = await settledRecord(db, fromHouse.alertId)
  t.match(houseRecord, { status: 'placed' }, 'the source adds to the position')
  const houseTrade = await openedTrade(db, houseRecord.id)
  const specQuantity = Number(specTrade.quantity)
  t.equal(netMnq(broker), specQuantity + Number(houseTrade.quantity), 'both trades are in the one position')

  broker.setPrice('MNQZ6', '21010')
  const exit = mnqExit({ sourceId: house, result: 'TP', exitPrice: 21010 })
  await publishAlert(app, exit)
  t.match(await closedTrade(db, houseRecord.id), { result: 'TP', quantity: houseTrade.quantity, exit_price: '21010.00000000' }, "the house's trade closes at its fill")
  await drained(app, 'ALERTS', Durables.result)
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), specQuantity, "the broker holds the spec route's quantity only")
  t.match(await tradeOfRecord(db, specTrade.alert_record_id!), { status: 'open', quantity: specTrade.quantity, exit_requested_at: null, result: null }, "the spec route's trade stays open, whole")
  const working = (id: number | null) => broker.orders().find((order) => order.id === id)?.ordStatus
  t.equal(working(specTrade.stop_order_id), 'Working', "the spec route's stop still works")
  t.equal(working(specTrade.target_order_id), 'Working', "the spec route's target still works")
  t.not(working(houseTrade.stop_order_id), 'Working', "the house trade's stop is gone")

  // A redelivery changes nothing.
  await publishAlert(app, exit)
  await drained(app, 'ALERTS', Durables.result)
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), specQuantity, 'the redelivered exit sent nothing')
  t.match(await tradeOfRecord(db, specTrade.alert_record_id!), { status: 'open', quantity: specTrade.quantity })
})

t.test("the spec route's exit closes only the spec route's trade; the source's stays open with its bracket", async (t) => {
  const { broker, app, db, house } = await traderWithSource(t)
  const fromHouse = mnqEntry({ userId: null, sourceId: house })
  await publishAlert(app, fromHouse)
  const houseTrade = await openedTrade(db, (await settledRecord(db, fromHouse.alertId)).id)
  const spec = mnqEntry({ userId: 'u-0', sl: 20900, tp: 21200 })
  await publishAlert(app, spec)
  const specRecord = await settledRecord(db, spec.alertId)
  await openedTrade(db, specRecord.id)

  broker.setPrice('MNQZ6', '20990')
  await publishAlert(app, mnqExit({ result: 'SL', exitPrice: 20990 }))
  t.match(await closedTrade(db, specRecord.id), { result: 'SL', exit_price: '20990.00000000' }, "the spec route's trade closes at its fill, though the source's opened first")
  await drained(app, 'ALERTS', Durables.result)
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), Number(houseTrade.quantity), "the broker holds the source's quantity only")
  t.match(await tradeOfRecord(db, houseTrade.alert_record_id!), { status: 'open', quantity: houseTrade.quantity, result: null })
  t.equal(broker.orders().find((order) => order.id === houseTrade.stop_order_id)?.ordStatus, 'Working', "the source's stop still works")
})
