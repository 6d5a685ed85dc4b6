import t from 'tap'
import { sql } from '@signals/db'
import { BrokerError } from '../../../src/feeds/broker/broker-adapter.ts'
import { waitExitLock } from '../../../src/repositories/exit-locks.ts'
import { eventually, publishAlert } from '../../helper.ts'
import { tradeOfRecord, type connectedTrader } from '../../trading-helper.ts'
import { mnqExit, netMnq, openBracket } from './exit-helper.ts'

/**
 * With exit plans off (today's live path): a partial close's trade keeps its bracket (stop and target, one
 * order each for the whole trade), resized by the keeper once the close's fill is applied. Until then both
 * legs are for the whole trade: reached in that window, either closes more than is held
 * (docs/decisions/targets-breakeven.md, "A partial close racing the pairs"). The close's fill is held apart
 * from the keeper with the paper broker's `holdEvents`, as a slow event delivery would.
 */

const legsOf = (broker: Awaited<ReturnType<typeof connectedTrader>>['broker'], recordId: number) =>
  Object.fromEntries(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`)).map((order) => [order.clOrdId?.endsWith('.sl') ? 'stop' : 'target', order]))

const closeTwo = () => mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })


t.test('a partial close, its fill not yet applied, then the stop price: the bracket stop closes only what is left', async (t) => {
  const { broker, app, record } = await openBracket(t)
  t.equal(netMnq(broker), 5)
  broker.holdEvents(true)
  await publishAlert(app, closeTwo())
  await eventually(() => netMnq(broker) === 3)
  t.equal(legsOf(broker, record.id).stop?.orderQty, 3, 'the stop was shrunk to the 3 left before the close went out')
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
  broker.holdEvents(false)
})

t.test('a partial close, its fill not yet applied, then the target price: the bracket target closes only what is left', async (t) => {
  const { broker, app, record } = await openBracket(t)
  broker.holdEvents(true)
  await publishAlert(app, closeTwo())
  await eventually(() => netMnq(broker) === 3)
  t.equal(legsOf(broker, record.id).target?.orderQty, 3, 'the target was shrunk to the 3 left before the close went out')
  broker.setPrice('MNQZ6', '21110')
  t.equal(netMnq(broker), 0, 'the target price hit: flat, never short')
  broker.holdEvents(false)
})

t.test('a partial close the broker refuses: the bracket shrunk for it is grown back', async (t) => {
  const { broker, app, db, record } = await openBracket(t)
  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => /test refusal/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', exit.alertId).executeTakeFirst())?.reason ?? ''))
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), 5, 'nothing closed')
  t.match(legsOf(broker, record.id), { stop: { orderQty: 5, ordStatus: 'Working' }, target: { orderQty: 5, ordStatus: 'Working' } }, 'both legs cover the 5 held again')
  // Tried again (the request waits its turn as after any refusal): it closes 2, the legs follow.
  await eventually(() => netMnq(broker) === 3, 30_000)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 3)
  await app.trading.keeper.idle()
  t.match(legsOf(broker, record.id), { stop: { orderQty: 3, ordStatus: 'Working' }, target: { orderQty: 3, ordStatus: 'Working' } }, 'both legs cover the 3 left')
})

/**
 * The close as the broker ends it with no fill: accepted under its tag (it has an id), then cancelled (by the
 * trader, a rejection after acceptance, an expiry): here a Sell Limit far above the market, cancelled.
 */
function closeEndingUnfilled(session: NonNullable<ReturnType<Awaited<ReturnType<typeof connectedTrader>>['app']['feeds']['session']>>, after: () => Promise<void> = async () => {}) {
  session.placeClosingOrder = async (request) => {
    const placed = await session.placeBracket({ tag: request.tag, contract: request.contract, action: request.action, quantity: request.quantity, entryType: 'Limit', entryPrice: '30000', stopPrice: '40000', targetPrice: null })
    await session.cancelOrder(placed.entryOrderId)
    await after()
    return { orderId: placed.entryOrderId }
  }
}

const requestOf = (db: Awaited<ReturnType<typeof connectedTrader>>['db'], alertId: string) =>
  db.selectFrom('flatten_requests').select(['done_at', 'outcome', 'reason']).where('alert_id', '=', alertId).executeTakeFirst()

t.test('a partial close the broker accepts and then ends unfilled: the bracket shrunk for it is grown back, and the trade says so', async (t) => {
  const { broker, app, db, record } = await openBracket(t)
  closeEndingUnfilled(app.feeds.session('u-0')!)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null, 20_000)
  // The keeper hears the close's order end (Canceled, nothing filled): waited for as the trade's note saying so, bounded.
  const said = /partial close .*ended Canceled.*0 of 2 filled.*put back/
  const told = await eventually(async () => said.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''), 10_000).then(() => true, () => false)
  t.equal(netMnq(broker), 5, 'nothing was closed: 5 still held')
  t.match(legsOf(broker, record.id), { stop: { orderQty: 5, ordStatus: 'Working' }, target: { orderQty: 5, ordStatus: 'Working' } }, 'both legs cover the 5 held again')
  t.ok(told, "the trade's note says why")
  t.match((await db.selectFrom('alerts').select('reason').where('id', '=', record.id).executeTakeFirst())?.reason ?? '', said, "and the record's reason")
  t.match((await requestOf(db, exit.alertId))?.outcome, /^partial close sent to the broker: .*; the partial close \(order \d+\) ended Canceled at the broker with 0 of 2 filled$/, "the request's outcome says the order then ended, not only that it was sent")
})

/** When the wait for the contract's exit lock that is under way now began (a waiter on an advisory lock of this database), or null. */
async function lockWaitStarted(db: Awaited<ReturnType<typeof connectedTrader>>['db']): Promise<string | null> {
  const result = await sql<{ started: string }>`
    SELECT a.query_start::text AS started FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
    WHERE l.locktype = 'advisory' AND NOT l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY a.query_start LIMIT 1`.execute(db)
  return result.rows[0]?.started ?? null
}

t.test('a partial close ended unfilled while the exit lock is held past one wait: the bracket is put back once the lock is free', async (t) => {
  const { broker, app, db, record } = await openBracket(t)
  // The keeper hears the close's end only once another holder has the contract's exit lock.
  broker.holdEvents(true)
  closeEndingUnfilled(app.feeds.session('u-0')!)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null, 20_000)
  // Another holder (a close whose broker requests hang) keeps the lock longer than one wait lasts (30 s).
  let free: (() => void) | null = null
  const held = waitExitLock(db, 'u-0', 'MNQZ6', 5_000, () => new Promise<void>((resolve) => (free = resolve)))
  await eventually(() => free !== null)
  broker.holdEvents(false)
  let started: string | null = null
  await eventually(async () => (started = await lockWaitStarted(db)) !== null)
  // That wait runs out (a wait begun later is the put-back trying again).
  await eventually(async () => (await lockWaitStarted(db)) !== started, 45_000)
  free!()
  await held
  const said = /partial close .*ended Canceled.*0 of 2 filled.*put back/
  const told = await eventually(async () => said.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''), 40_000).then(() => true, () => false)
  t.ok(told, "the trade's note says its bracket was put back")
  t.match(legsOf(broker, record.id), { stop: { orderQty: 5, ordStatus: 'Working' }, target: { orderQty: 5, ordStatus: 'Working' } }, 'both legs cover the 5 held again')
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat')
})

t.test('a partial close whose outcome was unknown, then found ended unfilled at the broker: not taken for sent, the bracket is grown back', async (t) => {
  const { broker, app, db, record } = await openBracket(t)
  // The keeper never hears the close's end (events held): only the runner's look for the sent close can see it.
  broker.holdEvents(true)
  closeEndingUnfilled(app.feeds.session('u-0')!, async () => {
    throw new BrokerError('unavailable', 'test: the answer was lost')
  })
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => /did not answer/.test((await requestOf(db, exit.alertId))?.reason ?? ''))
  // Its next look is now (not after the back-off): it finds the order ended at the broker.
  await sql`UPDATE flatten_requests SET next_attempt_at = now() WHERE alert_id = ${exit.alertId}`.execute(db)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null)
  await app.trading.flattens.idle()
  const outcome = (await requestOf(db, exit.alertId))?.outcome ?? ''
  t.equal(netMnq(broker), 5, 'nothing was closed: 5 still held')
  t.match(legsOf(broker, record.id), { stop: { orderQty: 5, ordStatus: 'Working' }, target: { orderQty: 5, ordStatus: 'Working' } }, 'both legs cover the 5 held again')
  t.match(outcome, /not carried out.*Canceled/, "the request's outcome says the close was not carried out")
  broker.holdEvents(false)
})

t.test('a partial close filled in part, its rest cancelled at the broker: the bracket grows back to what is still held', async (t) => {
  const { broker, app, db, record } = await openBracket(t)
  // Each order fills one contract per price event: the close of 2 fills 1, the other waits.
  broker.setLiquidity('MNQZ6', 1)
  await publishAlert(app, closeTwo())
  await eventually(() => netMnq(broker) === 4)
  const close = broker.orders().find((order) => order.clOrdId?.startsWith('pc-') && order.ordStatus === 'Working')
  t.ok(close, 'the rest of the close is still working')
  t.equal(legsOf(broker, record.id).stop?.orderQty, 3, 'while the rest may still fill: the stop covers what will be left')
  // The trader cancels the rest on the broker's platform.
  await app.feeds.session('u-0')!.cancelOrder(close!.id)
  await eventually(async () => /ended Canceled.*1 of 2 filled/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''))
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 4)
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), 4, '4 held')
  t.match(legsOf(broker, record.id), { stop: { orderQty: 4, ordStatus: 'Working' }, target: { orderQty: 4, ordStatus: 'Working' } }, 'both legs cover the 4 held')
  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})
