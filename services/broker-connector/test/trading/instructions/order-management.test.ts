import t from 'tap'
import type { OrderInstruction } from '@signals/contracts'
import { eventually, liveTradingOf, makeAlert, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'

/** Issue 24, item 5, against the paper broker: alerts that manage what is at the broker (docs/decisions/order-management-words.md). */

const WORKING = new Set(['PendingNew', 'Working', 'Suspended'])

const instructionAlert = (instruction: OrderInstruction, symbol: string | null = 'MNQ1!') =>
  makeAlert({ symbol, root: symbol === null ? null : 'MNQ', action: null, entryPrice: null, sl: null, tp: null, userId: 'u-0', instruction, raw: { action: instruction.kind } })

type Connected = Awaited<ReturnType<typeof connectedTrader>>

/** An MNQ long placed and filled: its record and open trade. */
async function openTrade({ app, db }: Connected) {
  const entry = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  if (record.status !== 'placed') throw new Error(`entry not placed: ${record.status} ${record.reason}`)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  return (await tradeOfRecord(db, record.id))!
}

t.test('modify: the open trade\'s stop and target move at the broker; a wider stop is refused with why', async (t) => {
  const connected = await connectedTrader(t)
  const { app, db } = connected
  const trade = await openTrade(connected)
  const legs = async () => {
    const versions = await app.feeds.session('u-0')!.orderVersions([trade.stop_order_id!, trade.target_order_id!])
    return { stop: Number(versions.get(trade.stop_order_id!)?.stopPrice), target: Number(versions.get(trade.target_order_id!)?.price) }
  }
  t.same(await legs(), { stop: 20950, target: 21100 })

  // PickMyTrade update_sl + update_tp; 20975.1 goes up to the tick (never further from the entry than asked).
  const modify = instructionAlert({ kind: 'modify', sl: 20975.1, tp: 21050 })
  await publishAlert(app, modify)
  t.match(await settledRecord(db, modify.alertId), { status: 'placed', reason: `stop of trade ${trade.id} moved to 20975.25, target of trade ${trade.id} moved to 21050.00` })
  t.same(await legs(), { stop: 20975.25, target: 21050 })

  const wider = instructionAlert({ kind: 'modify', sl: 20900, tp: null })
  await publishAlert(app, wider)
  t.match(await settledRecord(db, wider.alertId), { status: 'refused', refusal_code: 'stop_widened', reason: /further from the entry than the stop trade \d+ was sized with \(20950\.?0*\)/ })
  t.same(await legs(), { stop: 20975.25, target: 21050 }, 'nothing moved')

  const elsewhere = instructionAlert({ kind: 'modify', sl: 5990, tp: null }, 'MES1!')
  await publishAlert(app, { ...elsewhere, root: 'MES' })
  t.match(await settledRecord(db, elsewhere.alertId), { status: 'refused', refusal_code: 'no_open_trade', reason: /nothing to modify: no open trade in MES1! on account DEMO9000/ })
})

t.test('flatten everything, then cancel by type: an account flat and without working orders, auto-place left on', async (t) => {
  const connected = await connectedTrader(t)
  const { broker, app, db } = connected
  broker.setPrice('MESZ6', '6000')
  const working = () => broker.orders().filter((order) => order.accountId === 9000 && WORKING.has(order.ordStatus))
  const trade = await openTrade(connected)
  broker.placeManualOrder('trader0', { symbol: 'MESZ6', action: 'Buy', qty: 1 })
  const open = () => broker.positions().filter((position) => position.accountId === 9000 && position.netPos !== 0)
  await eventually(() => open().length === 2)
  const flatten = instructionAlert({ kind: 'flatten_account' }, null)
  await publishAlert(app, flatten)
  t.match(await settledRecord(db, flatten.alertId), { status: 'placed', reason: /^flatten everything: exits sent for your open trades in 1 contract\(s\), 1 other position\(s\) flattened, \d+ working order\(s\) cancelled on account DEMO9000$/ })
  await eventually(() => open().length === 0 && working().length === 0)
  await eventually(async () => (await tradeOfRecord(db, trade.alert_record_id!))?.status === 'closed')
  t.match(await tradeOfRecord(db, trade.alert_record_id!), { close_reason: /flatten-everything alert/ })
  t.same(await liveTradingOf(db, 'u-0'), { enabled: true, autoPlaceOrders: true }, 'a flatten leaves auto-place on')

  // A limit entry resting below the market; a cancel of entries cancels it (its legs go with it) and says so on both records.
  const resting = mnqEntry({ userId: 'u-0', entryPrice: 20900, sl: 20850, tp: 21000, raw: { orderType: 'limit' } })
  await publishAlert(app, resting)
  const restingRecord = await settledRecord(db, resting.alertId)
  t.equal(restingRecord.status, 'placed')
  const stops = instructionAlert({ kind: 'cancel', orders: 'target' }, 'MES1!')
  await publishAlert(app, { ...stops, root: 'MES' })
  t.match(await settledRecord(db, stops.alertId), { status: 'refused', refusal_code: 'nothing_to_cancel', reason: 'nothing to cancel: no target order(s) working in MESZ6 on account DEMO9000' })
  const cancel = instructionAlert({ kind: 'cancel', orders: 'entry' })
  await publishAlert(app, cancel)
  t.match(await settledRecord(db, cancel.alertId), { status: 'placed', reason: /^1 working entry order\(s\) cancelled in MNQZ6 on account DEMO9000$/ })
  await eventually(() => working().length === 0)
  t.match(await db.selectFrom('alerts').select(['status', 'reason']).where('id', '=', restingRecord.id).executeTakeFirstOrThrow(), { status: 'placed', reason: /cancelled by a cancel alert before it filled/ })
})

t.test('kill switch by alert: what the button does (flat, cancelled, auto-place off, recorded); a redelivery does nothing more', async (t) => {
  const connected = await connectedTrader(t)
  const { broker, app, db } = connected
  const trade = await openTrade(connected)
  const kill = instructionAlert({ kind: 'kill_switch' }, null)
  await publishAlert(app, kill)
  t.match(await settledRecord(db, kill.alertId), { status: 'placed', reason: /^kill switch: automatic order placement is off until you switch it on; exits sent for your open trades in 1 contract\(s\)/ })
  await eventually(() => broker.positions().every((position) => position.accountId !== 9000 || position.netPos === 0))
  await eventually(async () => (await tradeOfRecord(db, trade.alert_record_id!))?.status === 'closed')
  t.same(await liveTradingOf(db, 'u-0'), { enabled: true, autoPlaceOrders: false })
  t.match(await db.selectFrom('kill_switch_events').select(['outcome', 'detail']).where('user_id', '=', 'u-0').execute(), [{ outcome: 'done', detail: /on account DEMO9000/ }])

  // The same alert again under another message id (a second publish): its record exists, nothing is done twice.
  await publishAlert(app, kill, undefined, `${kill.alertId}-again`)
  const next = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, next)
  t.match(await settledRecord(db, next.alertId), { status: 'not_placed', reason: /automatic order placement is off/ })
  t.equal((await db.selectFrom('kill_switch_events').select('id').where('user_id', '=', 'u-0').execute()).length, 1, 'one use recorded')
  t.equal((await db.selectFrom('alerts').select('id').where('alert_id', '=', kill.alertId).execute()).length, 1, 'one record')
})

t.test('a stop entry works at the broker as a Stop order with its time in force, and fills when the market reaches it', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry({ userId: 'u-0', entryPrice: 21010, sl: 20960, tp: 21100, entryOrder: { type: 'stop', stopPrice: 21010, timeInForce: 'GTC' } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.match(record, { status: 'placed', order_quantity: 5 })
  const orderId = Number(record.entry_order_id)
  const version = (await app.feeds.session('u-0')!.orderVersions([orderId])).get(orderId)
  t.match(version, { orderType: 'Stop', stopPrice: '21010' })
  t.equal(await tradeOfRecord(db, record.id), undefined, 'not filled below its trigger')
  broker.setPrice('MNQZ6', '21012')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
  t.match(await tradeOfRecord(db, record.id), { side: 'LONG', entry_price: /^21010/ })
})

t.test('a stop entry whose trigger the market has already passed is refused, never filled at once beyond the price it was sized at', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const before = broker.orders().length
  const buy = mnqEntry({ userId: 'u-0', entryPrice: 20990, sl: 20940, tp: 21100, entryOrder: { type: 'stop', stopPrice: 20990, timeInForce: null } })
  await publishAlert(app, buy)
  t.match(await settledRecord(db, buy.alertId), { status: 'refused', refusal_code: 'stop_entry_passed', reason: /The LONG stop entry's trigger \(20990(\.0+)?\) is at or below the market \(21000(\.0+)?\)/ })
  const sell = mnqEntry({ userId: 'u-0', action: 'SHORT', entryPrice: 21000, sl: 21050, tp: 20900, entryOrder: { type: 'stop_limit', stopPrice: 21005, timeInForce: null } })
  await publishAlert(app, sell)
  t.match(await settledRecord(db, sell.alertId), { status: 'refused', refusal_code: 'stop_entry_passed', reason: /SHORT stop entry's trigger \(21005(\.0+)?\) is at or above the market/ })
  t.equal(broker.orders().length, before, 'nothing sent')
})
