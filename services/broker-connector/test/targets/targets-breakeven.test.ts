import t from 'tap'
import { Durables } from '../../src/consumers/plugin.ts'
import { drained, eventually, publishAlert } from '../helper.ts'
import { connectedTrader, mnqEntry, recordOf, settledRecord, tradeOfRecord } from '../trading-helper.ts'
import { netMnq, openedTrade, tradesOf } from '../positions/exit-helper.ts'

/** Exit plans are off by default (EXIT_PLANS_ENABLED); these tests are of what they do when on. */
const EXIT_PLANS_ON = { overrides: { EXIT_PLANS_ENABLED: 'true' } }

type Broker = Awaited<ReturnType<typeof connectedTrader>>['broker']
type App = Awaited<ReturnType<typeof connectedTrader>>['app']

/** The record's orders at the paper broker by their tag's suffix (`sl`, `tp1`, ...). */
const ordersOf = (broker: Broker, recordId: number) =>
  Object.fromEntries(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`)).map((order) => [order.clOrdId!.slice(`sig-${recordId}.`.length), order]))

const stopPriceOf = async (app: App, orderId: number) => (await app.feeds.session('u-0')!.orderVersions([orderId])).get(orderId)?.stopPrice

// 50 points of stop at $2 a point: the default $500 budget sizes 5 contracts.
const withTargets = () =>
  mnqEntry({ userId: 'u-0', tp: null, exitPlan: { targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 2 }, { price: 21080, quantity: 1 }], breakeven: { offsetTicks: 2 } } })

t.test('several targets: one stop for the whole, a target per TP; TP1 leaves the rest with its stop resized and at breakeven', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  await openedTrade(db, record.id)
  await eventually(() => ordersOf(broker, record.id).tp3 !== undefined)
  const placed = ordersOf(broker, record.id)
  t.match(placed, {
    sl: { orderQty: 5, ordStatus: 'Working' },
    tp1: { orderQty: 2, ordStatus: 'Working', action: 'Sell' },
    tp2: { orderQty: 2, ordStatus: 'Working' },
    tp3: { orderQty: 1, ordStatus: 'Working' },
  }, 'the stop covers all 5, each target its own quantity')
  t.notOk('tp' in placed, 'no single target leg')
  await eventually(async () => (await recordOf(db, entry.alertId)).reason !== null)
  t.match((await recordOf(db, entry.alertId)).reason, /targets placed: TP1 2 at 21020\.00, TP2 2 at 21040\.00, TP3 1 at 21080\.00/)

  broker.setPrice('MNQZ6', '21025')
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '3.0000')
  await eventually(() => ordersOf(broker, record.id).sl?.orderQty === 3)
  const stop = ordersOf(broker, record.id).sl!
  await eventually(async () => (await stopPriceOf(app, stop.id)) === '21000.5')
  t.equal(await stopPriceOf(app, stop.id), '21000.5', 'the stop of the 3 left is at the entry plus 2 ticks')
  t.match(ordersOf(broker, record.id), { tp2: { orderQty: 2, ordStatus: 'Working' }, tp3: { orderQty: 1, ordStatus: 'Working' } }, 'the other targets keep their quantities')
  const [open, part] = await tradesOf(db, 'u-0')
  t.match(part, { status: 'closed', quantity: '2.0000', result: 'TP', parent_trade_id: open!.id })

  // Back down to breakeven: the stop takes the 3 left, the targets left go with it (nothing opens the other way).
  broker.setPrice('MNQZ6', '21000.5')
  await eventually(() => netMnq(broker) === 0)
  await eventually(() => ordersOf(broker, record.id).tp2?.ordStatus === 'Canceled' && ordersOf(broker, record.id).tp3?.ordStatus === 'Canceled')
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'SL' })
  broker.setPrice('MNQZ6', '21100')
  t.equal(netMnq(broker), 0, 'no target fills after the stop closed the trade')
})

t.test('the farthest target closes the trade: the stop is cancelled; a redelivered alert places nothing again', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => ordersOf(broker, record.id).tp3 !== undefined)

  await publishAlert(app, entry, undefined, `${entry.alertId}-again`)
  await drained(app, 'ALERTS', Durables.entry)
  // Reconnecting replays the entry's fill from the snapshot: the targets are claimed, so nothing is sent again.
  const before = app.feeds.session('u-0')
  broker.dropConnections()
  await eventually(() => app.feeds.session('u-0') !== null && app.feeds.session('u-0') !== before)
  await app.trading.keeper.idle()
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${record.id}`)).length, 5, 'one entry, one stop, three targets: nothing doubled')
  t.equal((await db.selectFrom('alerts').select('id').where('alert_id', '=', entry.alertId).execute()).length, 1)

  broker.setPrice('MNQZ6', '21090')
  await eventually(() => netMnq(broker) === 0)
  await eventually(() => ordersOf(broker, record.id).sl?.ordStatus === 'Canceled')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'TP' })
  t.equal(netMnq(broker), 0)
})

t.test('sized differently from the alert: scaled, said on the record; a partial close cuts the farthest targets so they never close more than is open', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = mnqEntry({ userId: 'u-0', tp: null, exitPlan: { targets: [{ price: 21020, quantity: 2 }, { price: 21040, quantity: 1 }, { price: 21080, quantity: 1 }], breakeven: null } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => ordersOf(broker, record.id).tp3 !== undefined)
  t.match(ordersOf(broker, record.id), { sl: { orderQty: 5 }, tp1: { orderQty: 3 }, tp2: { orderQty: 1 }, tp3: { orderQty: 1 } }, '2:1:1 of the 5 sized')
  await eventually(async () => (await recordOf(db, entry.alertId)).reason !== null)
  t.match((await recordOf(db, entry.alertId)).reason, /targets scaled from 4 to the 5 contracts sized/)

  const { mnqExit } = await import('../positions/exit-helper.ts')
  await publishAlert(app, mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } }))
  await eventually(() => netMnq(broker) === 3)
  await eventually(() => ordersOf(broker, record.id).tp2?.ordStatus === 'Canceled' && ordersOf(broker, record.id).tp3?.ordStatus === 'Canceled')
  await eventually(() => ordersOf(broker, record.id).sl?.orderQty === 3)
  t.match(ordersOf(broker, record.id), { tp1: { orderQty: 3, ordStatus: 'Working' }, sl: { orderQty: 3, ordStatus: 'Working' } }, 'what is left: TP1 and the stop for the 3 held')

  broker.setPrice('MNQZ6', '21100')
  await eventually(() => netMnq(broker) === 0)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.equal(netMnq(broker), 0, 'never turned short')
})

t.test('a broker connection without several targets refuses the entry before anything is sent', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const session = app.feeds.session('u-0')!
  Object.defineProperty(session, 'placeTargetOrder', { value: undefined })
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
  await eventually(() => ordersOf(broker, record.id).tp2 !== undefined)
  t.match(ordersOf(broker, record.id), { sl: { orderQty: 5, action: 'Buy' }, tp1: { orderQty: 3, action: 'Buy' }, tp2: { orderQty: 2, action: 'Buy' } }, 'equal shares, the nearer one the odd contract')
  t.equal(netMnq(broker), -5)

  broker.setPrice('MNQZ6', '20975')
  await eventually(() => netMnq(broker) === -2)
  const stop = ordersOf(broker, record.id).sl!
  await eventually(async () => (await stopPriceOf(app, stop.id)) === '20999.5')
  await eventually(() => ordersOf(broker, record.id).sl?.orderQty === 2)
  t.match(ordersOf(broker, record.id), { sl: { orderQty: 2, ordStatus: 'Working' }, tp2: { orderQty: 2, ordStatus: 'Working' } })
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
