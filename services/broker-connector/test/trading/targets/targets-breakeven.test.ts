import t from 'tap'
import { Durables } from '../../../src/intake/plugin.ts'
import { drained, eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, recordOf, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { netMnq, openedTrade, tradesOf } from '../positions/exit-helper.ts'

import { EXIT_PLANS_ON, ordersOf, stopPriceOf, withTargets as targets } from './targets-helper.ts'

const withTargets = () => targets({ offsetTicks: 2 })

t.test('several targets: each TP with its own stop (the whole-position stop shrunk to nothing); TP1 leaves the rest with their stops at breakeven', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await openedTrade(db, record.id)
  await eventually(() => ordersOf(broker, record.id).sl5 !== undefined)
  const placed = ordersOf(broker, record.id)
  t.match(placed, {
    sl: { ordStatus: 'Canceled' },
    tp1: { orderQty: 1, ordStatus: 'Working', action: 'Sell' },
    sl1: { orderQty: 1, ordStatus: 'Working', action: 'Sell' },
    tp2: { orderQty: 1, ordStatus: 'Working' },
    sl2: { orderQty: 1, ordStatus: 'Working' },
    tp5: { orderQty: 1, ordStatus: 'Working' },
    sl5: { orderQty: 1, ordStatus: 'Working' },
  }, 'each contract of each target a pair with its own stop; the whole-position stop gave them all its contracts')
  t.notOk('tp' in placed, 'no single target leg')
  await eventually(async () => (await recordOf(db, entry.alertId)).reason !== null)
  t.match((await recordOf(db, entry.alertId)).reason, /targets placed: TP1 2 at 21020\.00, TP2 2 at 21040\.00, TP3 1 at 21080\.00/)

  broker.setPrice('MNQZ6', '21025')
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '3.0000')
  t.match(ordersOf(broker, record.id), { sl1: { ordStatus: 'Canceled' }, sl2: { ordStatus: 'Canceled' } }, 'TP1\'s pairs done cancelled their stops at the broker')
  const left = ['sl3', 'sl4', 'sl5'].map((leg) => ordersOf(broker, record.id)[leg]!)
  await eventually(async () => (await Promise.all(left.map((stop) => stopPriceOf(app, stop.id)))).every((price) => price === '21000.5'))
  t.pass('the stops of the 3 left are at the entry plus 2 ticks')
  t.match(ordersOf(broker, record.id), { tp3: { orderQty: 1, ordStatus: 'Working' }, sl3: { orderQty: 1 }, tp5: { orderQty: 1, ordStatus: 'Working' }, sl5: { orderQty: 1 } }, 'the other pairs keep their contract')
  const [open, ...parts] = await tradesOf(db, 'u-0')
  t.match(parts, [{ status: 'closed', quantity: '1.0000', result: 'TP', parent_trade_id: open!.id }, { status: 'closed', quantity: '1.0000', result: 'TP', parent_trade_id: open!.id }], 'each of TP1\'s pairs closed its contract')

  // Back down to breakeven: the stop takes the 3 left, the targets left go with it (nothing opens the other way).
  broker.setPrice('MNQZ6', '21000.5')
  await eventually(() => netMnq(broker) === 0)
  await eventually(() => ['tp3', 'tp4', 'tp5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'))
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'SL' })
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0, 'no target fills after the stop closed the trade')
})

t.test('the farthest target closes the trade: the stop is cancelled; a redelivered alert places nothing again', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => ordersOf(broker, record.id).sl5 !== undefined)

  await publishAlert(app, entry, undefined, `${entry.alertId}-again`)
  await drained(app, 'ALERTS', Durables.entry)
  // Reconnecting replays the entry's fill from the snapshot: the targets are claimed, so nothing is sent again.
  const before = app.feeds.session('u-0')
  broker.dropConnections()
  await eventually(() => app.feeds.session('u-0') !== null && app.feeds.session('u-0') !== before)
  await app.trading.keeper.idle()
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${record.id}`)).length, 12, 'one entry, one stop, five target pairs: nothing doubled')
  t.equal((await db.selectFrom('alerts').select('id').where('alert_id', '=', entry.alertId).execute()).length, 1)

  broker.setPrice('MNQZ6', '21090')
  await eventually(() => netMnq(broker) === 0)
  t.ok(['sl1', 'sl2', 'sl3', 'sl4', 'sl5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'), 'each target done cancelled its stop')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'TP' })
  t.equal(netMnq(broker), 0)
})

t.test('sized differently from the alert: scaled, said on the record; a partial close cuts the farthest targets so they never close more than is open', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = mnqEntry({ userId: 'u-0', tp: null, exitPlan: { targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 1 }, { price: 21080, quantity: 1 }], breakeven: null } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => ordersOf(broker, record.id).sl5 !== undefined)
  t.match(ordersOf(broker, record.id), { sl: { ordStatus: 'Canceled' }, sl5: { orderQty: 1 } }, 'one pair per contract')
  await eventually(async () => /targets placed: TP1 3 at 21020\.00, TP2 1 at 21040\.00, TP3 1 at 21080\.00/.test((await recordOf(db, entry.alertId)).reason ?? ''))
  t.pass('2:1:1 of the 5 sized')
  await eventually(async () => (await recordOf(db, entry.alertId)).reason !== null)
  t.match((await recordOf(db, entry.alertId)).reason, /targets scaled from 4 to the 5 contracts sized/)

  const { mnqExit } = await import('../positions/exit-helper.ts')
  await publishAlert(app, mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } }))
  await eventually(() => netMnq(broker) === 3)
  await eventually(() => ['tp4', 'sl4', 'tp5', 'sl5'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Canceled'))
  t.ok(['tp1', 'sl1', 'tp2', 'sl2', 'tp3', 'sl3'].every((leg) => ordersOf(broker, record.id)[leg]?.ordStatus === 'Working'), 'what is left: TP1\'s 3 pairs for the 3 held')

  broker.setPrice('MNQZ6', '21100')
  await eventually(() => netMnq(broker) === 0)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.equal(netMnq(broker), 0, 'never turned short')
})

t.test('a broker connection without several targets refuses the entry before anything is sent', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const session = app.feeds.session('u-0')!
  Object.defineProperty(session, 'placeTargetPair', { value: undefined })
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.match(record, { status: 'refused', refusal_code: 'targets_not_supported' })
  t.equal(broker.orders().length, 0, 'nothing sent')
})

t.test('a short: targets below, TP1 moves the stop down to the entry less the offset, never loosened', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = mnqEntry({ userId: 'u-0', action: 'SHORT', sl: 21050, tp: null, exitPlan: { targets: [{ price: 20980, quantity: null }, { price: 20960, quantity: null }], breakeven: { offsetTicks: 2 } } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => ordersOf(broker, record.id).sl5 !== undefined)
  t.match(ordersOf(broker, record.id), { sl: { ordStatus: 'Canceled' }, tp1: { orderQty: 1, action: 'Buy' }, sl1: { orderQty: 1, action: 'Buy' }, tp5: { orderQty: 1, action: 'Buy' }, sl5: { orderQty: 1, action: 'Buy' } })
  await eventually(async () => /targets placed: TP1 3 at 20980\.00, TP2 2 at 20960\.00/.test((await recordOf(db, entry.alertId)).reason ?? ''))
  t.pass('equal shares, the nearer one the odd contract')
  t.equal(netMnq(broker), -5)

  broker.setPrice('MNQZ6', '20975')
  await eventually(() => netMnq(broker) === -2)
  const stop = ordersOf(broker, record.id).sl5!
  await eventually(async () => (await stopPriceOf(app, stop.id)) === '20999.5')
  t.match(ordersOf(broker, record.id), { sl4: { ordStatus: 'Working' }, tp4: { ordStatus: 'Working' }, sl5: { ordStatus: 'Working' }, tp5: { ordStatus: 'Working' } })
  await eventually(async () => /stop moved to breakeven 20999\.50 after TP1/.test((await recordOf(db, entry.alertId)).reason ?? ''))
})

t.test('off by default (EXIT_PLANS_ENABLED): an entry asking for several targets or a trailing stop is refused, saying why, and nothing is sent', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const before = broker.orders().length
  const targets = withTargets()
  await publishAlert(app, targets)
  t.match(await settledRecord(db, targets.alertId), { status: 'refused', refusal_code: 'targets_not_supported', reason: /several targets, breakeven and trailing stops are not carried out on this platform yet/ })
  const trailing = mnqEntry({ userId: 'u-0', trailingStop: { distanceTicks: 20, distancePrice: null, triggerPrice: null, stepTicks: 1 } })
  await publishAlert(app, trailing)
  t.match(await settledRecord(db, trailing.alertId), { status: 'refused', refusal_code: 'targets_not_supported' })
  t.equal(broker.orders().length, before, 'nothing sent')
  t.equal(app.trading.trailingStops, null, 'no trailing pass runs')
})
