import t from 'tap'
import { Durables } from '../../src/intake/plugin.ts'
import { drained, eventually, publishAlert } from '../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../trading-helper.ts'
import { closedTrade, mnqExit, netMnq, openedTrade, tradesOf } from '../trading/positions/exit-helper.ts'

const legs = (broker: Awaited<ReturnType<typeof connectedTrader>>['broker'], recordId: number) =>
  Object.fromEntries(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`)).map((order) => [order.clOrdId?.endsWith('.sl') ? 'stop' : 'target', order]))

t.test('a partial close takes off the part asked, once; the rest keeps its stop and target, resized', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  t.equal(netMnq(broker), 5)

  const two = mnqExit({ closes: 'LONG', action: 'SHORT', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })
  await publishAlert(app, two)
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => (await tradesOf(db, 'u-0')).length === 2)
  const [open, part] = await tradesOf(db, 'u-0')
  t.match(open, { status: 'open', quantity: '3.0000', exit_requested_at: null }, 'the trade keeps 3 open, not asked to exit')
  t.match(part, { status: 'closed', quantity: '2.0000', parent_trade_id: open!.id }, 'the 2 closed split off')
  await eventually(() => legs(broker, record.id).stop?.orderQty === 3 && legs(broker, record.id).target?.orderQty === 3)
  t.match(legs(broker, record.id), { stop: { orderQty: 3, ordStatus: 'Working' }, target: { orderQty: 3, ordStatus: 'Working' } }, 'both legs cover the 3 left')

  // The same alert delivered again (another message id: past the bus's duplicate window) asks for nothing again.
  await publishAlert(app, two, undefined, `${two.alertId}-again`)
  await drained(app, 'ALERTS', Durables.result)
  await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('alert_id', '=', two.alertId).executeTakeFirst())?.done_at != null)
  const requests = await db.selectFrom('flatten_requests').select(['outcome', 'done_at']).where('alert_id', '=', two.alertId).execute()
  t.equal(requests.length, 1, 'one partial close for the alert')
  t.match(requests[0]?.outcome, /^partial close sent to the broker: 2 of the LONG MNQZ6 position of 5/, 'what was done is kept')

  const half = mnqExit({ closes: null, closePart: { quantity: null, percent: 50, remaining: null } })
  await publishAlert(app, half)
  await eventually(() => netMnq(broker) === 2)
  t.equal(netMnq(broker), 2, '50% of 3 rounds down to 1')
  await eventually(() => legs(broker, record.id).stop?.orderQty === 2)
  // The stop is shrunk before the close leaves now (partial-close-bracket.test.ts): the trade follows once its fill is applied.
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '2.0000')
  t.match(await tradeOfRecord(db, record.id), { status: 'open', quantity: '2.0000' })

  const keepOne = mnqExit({ closes: 'LONG', closePart: { quantity: null, percent: null, remaining: 1 } })
  await publishAlert(app, keepOne)
  await eventually(() => netMnq(broker) === 1)
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith('pc-')).length, 3, 'three partial closes, three orders')
})

t.test('a partial close never exceeds the position, and one asking for less than a contract closes nothing, saying why', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  const held = netMnq(broker)
  t.equal(held, 5)

  const tiny = mnqExit({ closes: 'LONG', closePart: { quantity: null, percent: 10, remaining: null } })
  await publishAlert(app, tiny)
  await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('alert_id', '=', tiny.alertId).executeTakeFirst())?.done_at != null)
  const done = await db.selectFrom('flatten_requests').select('outcome').where('alert_id', '=', tiny.alertId).executeTakeFirstOrThrow()
  t.match(done.outcome, /^partial close: 10% of 5 contract\(s\) is less than one contract, so nothing is closed/)
  t.equal(netMnq(broker), held, 'nothing closed')

  const tooMany = mnqExit({ closes: 'LONG', closePart: { quantity: 99, percent: null, remaining: null } })
  await publishAlert(app, tooMany)
  await eventually(() => netMnq(broker) === 0)
  await drained(app, 'ALERTS', Durables.result)
  t.equal(netMnq(broker), 0, 'closed what was held, and never turned short')
  t.match(await closedTrade(db, record.id), { status: 'closed', quantity: '5.0000' }, 'the trade closed whole at that fill')
})

t.test('two partial closes back to back: the second waits for the first to be done, so together they never sell more than is held', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  t.equal(netMnq(broker), 5)

  // The first close's order fills one contract now, the other only at the next price (a thin market).
  broker.setLiquidity('MNQZ6', 1)
  const two = mnqExit({ closes: 'LONG', closePart: { quantity: 2, percent: null, remaining: null } })
  await publishAlert(app, two)
  await eventually(() => netMnq(broker) === 4)
  const all = mnqExit({ closes: 'LONG', closePart: { quantity: 99, percent: null, remaining: null } })
  await publishAlert(app, all)
  await eventually(async () => /an earlier partial close \(order \d+\) is still working in MNQZ6; this one waits for it/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', all.alertId).executeTakeFirst())?.reason ?? ''))
  t.equal(netMnq(broker), 4, 'nothing more sold while the first is working')

  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', '21000.25')
  await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('alert_id', '=', all.alertId).executeTakeFirst())?.done_at != null)
  await eventually(() => netMnq(broker) === 0)
  t.match((await db.selectFrom('flatten_requests').select('outcome').where('alert_id', '=', all.alertId).executeTakeFirstOrThrow()).outcome, /^partial close sent to the broker: 3 of the LONG MNQZ6 position of 3/)
  await eventually(() => broker.orders().filter((order) => order.clOrdId?.startsWith('pc-')).every((order) => order.ordStatus === 'Filled'))
  t.equal(netMnq(broker), 0, 'flat, never short')
})
