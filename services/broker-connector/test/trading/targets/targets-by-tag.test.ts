import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'

import { EXIT_PLANS_ON, ordersOf, withTargets } from './targets-helper.ts'

type Db = Awaited<ReturnType<typeof connectedTrader>>['db']

/** As if the connector died between sending each target and storing its order id (or the send's outcome was unknown). */
const forgetTargetIds = (db: Db, recordId: number) => sql`UPDATE trade_targets SET order_id = NULL, stop_order_id = NULL WHERE record_id = ${recordId}`.execute(db)
const storedIds = async (db: Db, recordId: number) =>
  (await sql<{ order_id: string | null }>`SELECT order_id FROM trade_targets WHERE record_id = ${recordId} ORDER BY level`.execute(db)).rows.map((row) => row.order_id === null ? null : Number(row.order_id))

t.test('targets whose order ids were never stored are found by their tag: the stop closing the trade cancels them, and their ids are stored', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(async () => (await storedIds(db, record.id)).every((id) => id !== null) && (await storedIds(db, record.id)).length === 5)
  await forgetTargetIds(db, record.id)

  broker.setPrice('MNQZ6', '20950')
  await eventually(() => netMnq(broker) === 0)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  await eventually(() => ['tp1', 'tp2', 'tp3', 'tp4', 'tp5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'))
  const placed = ordersOf(broker, record.id)
  t.same(await storedIds(db, record.id), [placed.tp1!.id, placed.tp2!.id, placed.tp3!.id, placed.tp4!.id, placed.tp5!.id], 'the ids found by tag are stored')
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0, 'no target opens a short after the stop closed the trade')
})

t.test('a partial close cuts targets found by their tag when their order ids were never stored', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(async () => (await storedIds(db, record.id)).length === 5 && (await storedIds(db, record.id)).every((id) => id !== null))
  await forgetTargetIds(db, record.id)

  await publishAlert(app, mnqExit({ closes: 'LONG', quantity: 3, closePart: { quantity: 3, percent: null, remaining: null } }))
  await eventually(() => netMnq(broker) === 2)
  await eventually(() => ['tp3', 'tp4', 'tp5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'))
  t.match(ordersOf(broker, record.id), { tp1: { ordStatus: 'Working' }, tp2: { ordStatus: 'Working' } }, 'TP1\'s pairs keep the 2 held')
  broker.setPrice('MNQZ6', '21100')
  await eventually(() => netMnq(broker) === 0)
  t.equal(netMnq(broker), 0, 'never turned short')
})

t.test('an exit alert finding the broker already flat cancels the trade\'s targets with its stop', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => ordersOf(broker, record.id).tp5?.ordStatus === 'Working')
  // The broker says flat while the fill that made it so has not reached the trade yet.
  Object.defineProperty(app.feeds.session('u-0')!, 'listPositions', { value: () => Promise.resolve([]) })

  await publishAlert(app, mnqExit({ closes: 'LONG' }))
  await eventually(() => ordersOf(broker, record.id).sl?.ordStatus === 'Canceled')
  await eventually(() => ['tp1', 'tp2', 'tp3', 'tp4', 'tp5', 'sl1', 'sl2', 'sl3', 'sl4', 'sl5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'))
  t.pass('every stop and target cancelled')
})

t.test('breakeven never moves a stop whose current price the broker does not tell', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = mnqEntry({ userId: 'u-0', tp: null, exitPlan: { targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 3 }], breakeven: { offsetTicks: 2 } } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => ordersOf(broker, record.id).tp5?.ordStatus === 'Working')
  const session = app.feeds.session('u-0')!
  const versions = session.orderVersions.bind(session)
  await eventually(() => ordersOf(broker, record.id).sl5?.ordStatus === 'Working')
  const stop = ordersOf(broker, record.id).sl5!
  Object.defineProperty(session, 'orderVersions', { value: () => Promise.resolve(new Map()) })

  broker.setPrice('MNQZ6', '21025')
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => /breakeven/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''))
  t.match((await tradeOfRecord(db, record.id))?.exit_note, /the stop was not moved to breakeven 21000\.50: stop \d+: its price at the broker is unknown/)
  t.equal((await versions([stop.id])).get(stop.id)?.stopPrice, '20950', 'the stop stays where it was')
})

t.test('a target whose send had an unknown outcome (placed, its answer lost) is still cancelled by tag when the stop closes the trade', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  broker.interfere('order/placeOCO', { kind: 'server_error', carriedOut: true })
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => ordersOf(broker, record.id).tp5?.ordStatus === 'Working')
  await eventually(async () => /outcome unknown \(check the broker for sig-\d+\.tp1 and sig-\d+\.sl1\)/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''))

  broker.setPrice('MNQZ6', '20950')
  await eventually(() => netMnq(broker) === 0)
  await eventually(() => ['tp1', 'tp2', 'tp3', 'tp4', 'tp5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'))
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0, 'the target sent with no answer opens nothing')
})
