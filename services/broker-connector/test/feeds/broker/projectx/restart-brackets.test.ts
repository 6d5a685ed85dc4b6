import t from 'tap'
import type { ProjectXPaperBroker } from '@signals/dev-paper-broker-projectx'
import { buildInstance, publishAlert } from '../../../helper.ts'
import { settledRecord, tradeOfRecord } from '../../../trading-helper.ts'
import { mnqExit, openedTrade } from '../../../trading/positions/exit-helper.ts'
import { connectedProjectXTrader, eventually, netMnq, restingMnqEntry } from './helper.ts'

// Issue 23 (docs/decisions/projectx-adapter.md, "Legs that come after the trade opened"). A resting entry placed
// with ProjectX's own brackets before a connector restart fills after it: ProjectX places the legs after the
// fill, and the new session's hold does not know the entry was placed with legs, so the fill opens the trade
// first. Its legs are still the trade's: a later partial close resizes them, so they never close more than held.

/** ProjectX's bracket legs of the entry (the orders it placed with the entry as their parent) at the paper broker. */
const bracketLegsOf = (broker: ProjectXPaperBroker, entryId: number) => broker.orders().filter((order) => order.parentId === entryId)

t.test("a resting entry with ProjectX's brackets that fills after a restart: its trade knows its legs, and a partial close resizes them", async (t) => {
  const { broker, app, db: firstDb, config } = await connectedProjectXTrader(t)
  const entry = restingMnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(firstDb, entry.alertId)
  t.match(record, { status: 'placed', reason: null }, 'placed with its brackets')
  const placed = broker.orders().find((order) => order.clOrdId === `sig-${record.id}`)
  t.equal(placed?.ordStatus, 'Working', 'the limit rests at 20990')
  const entryId = placed!.id

  // The connector restarts with the entry resting; the entry fills while the new instance listens.
  await app.close()
  const restarted = await buildInstance(t, config, { feeds: true })
  const db = restarted.db
  await eventually(() => restarted.feeds.session('u-0') !== null)
  // ProjectX tells the legs after the fill (placed from it): here 500 ms after.
  broker.delayBracketLegs(500)
  broker.setPrice('MNQZ6', '20990')
  await eventually(() => netMnq(broker) === 5)
  await eventually(() => bracketLegsOf(broker, entryId).filter((leg) => leg.ordStatus === 'Working').length === 2)
  // Which is which, as the connector names them (`AutoBracket<entry>-SL|TP` reported as `sig-N.sl|tp`).
  const named = async (suffix: string) => ((await restarted.feeds.session('u-0')?.listOrders()) ?? []).find((order) => order.tag === `sig-${record.id}${suffix}`)?.id
  await eventually(async () => (await named('.sl')) !== undefined && (await named('.tp')) !== undefined)
  broker.delayBracketLegs(0)
  const stopId = (await named('.sl'))!
  const targetId = (await named('.tp'))!
  t.same(bracketLegsOf(broker, entryId).map((leg) => [leg.id, leg.orderQty]).sort(), [[stopId, 5], [targetId, 5]].sort(), "ProjectX's legs sized to the five held")

  await openedTrade(db, record.id)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 5)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.stop_order_id != null && (await tradeOfRecord(db, record.id))?.target_order_id != null, 5_000).catch(() => undefined)
  const opened = (await tradeOfRecord(db, record.id))!
  t.same([opened.stop_order_id, opened.target_order_id].map((id) => (id === null ? null : Number(id))), [stopId, targetId], 'the trade knows its stop and target')

  // A partial close of 40%: 2 sold, 3 held; the legs follow the trade down to 3.
  await publishAlert(restarted, mnqExit({ userId: 'u-0', closes: 'LONG', closePart: { quantity: null, percent: 40, remaining: null } }))
  await eventually(() => netMnq(broker) === 3).catch(() => undefined)
  // On main: "partial close: nothing closed, ... 5 contract(s) are covered by working stops ...": legs the trade
  // did not know counted as covering the whole position, and the close was given up.
  t.equal(netMnq(broker), 3, 'the partial close carried out: 2 sold, 3 held')
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 3)
  await eventually(() => bracketLegsOf(broker, entryId).every((leg) => leg.orderQty === 3), 5_000).catch(() => undefined)
  t.same(bracketLegsOf(broker, entryId).map((leg) => [leg.id, leg.ordStatus, leg.orderQty]).sort(), [[stopId, 'Working', 3], [targetId, 'Working', 3]].sort(), 'stop and target resized to the three held')

  // The stop closes the three: never more sold than held.
  broker.setPrice('MNQZ6', '20940')
  await eventually(() => bracketLegsOf(broker, entryId).every((leg) => leg.ordStatus !== 'Working'))
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed').catch(() => undefined)
  t.equal(netMnq(broker), 0, 'flat, not turned short')
})

t.test("an entry placed with ProjectX's brackets whose legs come after the hold's wait: the trade is told them when they come", async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t)
  const entry = restingMnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.match(record, { status: 'placed', reason: null }, 'placed with its brackets')
  const entryId = broker.orders().find((order) => order.clOrdId === `sig-${record.id}`)!.id

  // The legs are told 2.5 s after the fill: past the 2 s the fill is held for them (legWaitMs).
  broker.delayBracketLegs(2_500)
  broker.setPrice('MNQZ6', '20990')
  await openedTrade(db, record.id)
  t.match(await tradeOfRecord(db, record.id), { stop_order_id: null, target_order_id: null }, 'the fill opened the trade before its legs came')
  await eventually(() => bracketLegsOf(broker, entryId).filter((leg) => leg.ordStatus === 'Working').length === 2)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.stop_order_id != null && (await tradeOfRecord(db, record.id))?.target_order_id != null, 5_000).catch(() => undefined)
  const opened = (await tradeOfRecord(db, record.id))!
  t.same([opened.stop_order_id, opened.target_order_id].map((id) => (id === null ? null : Number(id))).sort(), bracketLegsOf(broker, entryId).map((leg) => leg.id).sort(), 'the trade knows its stop and target')
  broker.delayBracketLegs(0)

  // The target closes the five; ProjectX cancels the stop with it.
  broker.setPrice('MNQZ6', '21090')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { result: 'TP', quantity: '5.0000' }, 'closed by its target')
  t.equal(netMnq(broker), 0, 'flat')
})
