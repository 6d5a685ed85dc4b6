import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { closedTrade, mnqExit, netMnq } from '../positions/exit-helper.ts'
import { exitsOf, specAndHouseTrades } from './targets-helper.ts'

/**
 * A source's exit closes only its trades (source-close.ts); a trade of it with target pairs has them cut
 * before the closing order leaves (docs/decisions/targets-breakeven.md, the stop 30 review's LOW finding).
 * The close's fill is held apart from the keeper (the paper broker's `holdEvents`), as a slow event delivery
 * would: on the code before the fix the house trade's pair stops were still working for 2 on the 2 contracts
 * left to the spec route, and the stop price sold them.
 */
t.test("a source's exit cuts its trade's pairs before its closing order leaves: its stops never close the other trades' contracts", async (t) => {
  const { broker, app, db, house, specTrade, houseRecord, specQuantity } = await specAndHouseTrades(t)
  t.match(houseRecord, { status: 'placed' })
  t.equal(netMnq(broker), specQuantity + 2, 'both trades are in the one position')

  broker.holdEvents(true)
  await publishAlert(app, mnqExit({ sourceId: house }))
  await eventually(() => netMnq(broker) === specQuantity)
  await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('user_id', '=', 'u-0').where('done_at', 'is not', null).execute()).length === 1)
  t.same(exitsOf(broker, houseRecord.id), { stops: 0, targets: 0 }, "the house trade's pairs were cut before its close filled")
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), specQuantity, "the house trade's stop price reached: the spec route's contracts are not sold")

  broker.holdEvents(false)
  await closedTrade(db, houseRecord.id)
  await app.trading.keeper.idle()
  t.match(await tradeOfRecord(db, specTrade.alert_record_id!), { status: 'open', quantity: specTrade.quantity }, "the spec route's trade stays open, whole")
  t.equal(broker.orders().find((order) => order.id === specTrade.stop_order_id)?.ordStatus, 'Working', "the spec route's stop still works")
})

t.test("a source's exit the broker refuses puts back what was cut for it; tried again, it closes the source's trade only", async (t) => {
  const { broker, app, db, house, specTrade, fromHouse, houseRecord, specQuantity } = await specAndHouseTrades(t)

  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const exit = mnqExit({ sourceId: house })
  await publishAlert(app, exit)
  await eventually(async () => /refused the exit/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', exit.alertId).executeTakeFirst())?.reason ?? ''))
  t.equal(netMnq(broker), specQuantity + 2, 'nothing closed')
  t.equal(exitsOf(broker, houseRecord.id).stops, 2, "the house trade's 2 contracts have their stop back")
  t.match((await settledRecord(db, fromHouse.alertId)).reason, /the source's exit was not carried out and the targets cut for it are gone; a stop for their 2 contract\(s\) was placed at 20950/)

  await closedTrade(db, houseRecord.id, 30_000)
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), specQuantity, "tried again: the broker holds the spec route's quantity only")
  t.same(exitsOf(broker, houseRecord.id), { stops: 0, targets: 0 }, "no leg of the house trade is left working")
  t.match(await tradeOfRecord(db, specTrade.alert_record_id!), { status: 'open', quantity: specTrade.quantity })
})

t.test("a source's exit whose outcome stays unknown and is given up, the broker still holding the position: what was cut for it is put back", async (t) => {
  const { broker, app, db, house, fromHouse, houseRecord, specQuantity } = await specAndHouseTrades(t)

  // Not carried out, its answer lost (503): an unknown outcome, looked for, never sent again.
  broker.interfere('order/placeorder', { kind: 'server_error' }, 1)
  const exit = mnqExit({ sourceId: house })
  await publishAlert(app, exit)
  const request = () => db.selectFrom('flatten_requests').select(['reason', 'outcome', 'part_sent_at', 'done_at']).where('alert_id', '=', exit.alertId).executeTakeFirst()
  await eventually(async () => (await request())?.part_sent_at != null && /did not answer/.test((await request())?.reason ?? ''))
  t.equal(exitsOf(broker, houseRecord.id).stops, 0, 'while the close may still come, its cut stands')
  await sql`UPDATE flatten_requests SET part_sent_at = now() - interval '5 minutes', next_attempt_at = now() WHERE alert_id = ${exit.alertId}`.execute(db)
  await eventually(async () => (await request())?.done_at != null)
  t.match((await request())?.outcome, /never confirmed/)
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), specQuantity + 2, 'nothing closed at the broker')
  t.equal(exitsOf(broker, houseRecord.id).stops, 2, "the house trade's 2 contracts have a stop again")
  t.match((await settledRecord(db, fromHouse.alertId)).reason, /the source's exit was never confirmed and the targets cut for it are gone; a stop for their 2 contract\(s\) was placed at 20950/)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), specQuantity, "the house trade's stop price reached: its 2 contracts closed, the spec route's kept")
})
