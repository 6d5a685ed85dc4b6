import t from 'tap'
import { sql } from '@signals/db'
import { eventually, identityHeaders, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, type connectedTrader } from '../../trading-helper.ts'
import { traderWithSource } from '../../source-helper.ts'
import { bracketWithUnknownClose, closedTrade, mnqExit, netMnq, openedTrade } from './exit-helper.ts'

/**
 * A partial close whose send outcome is unknown (no answer before the client's time-out, `late`) makes an
 * alert's exit wait for it (close-unknown-exit.test.ts). An exit no alert asked for (the kill switch, a risk
 * halt's flatten) must not: the kill switch cancels every working order after its flattens, so a waiting
 * exit left the position held without its stop; and the waits of an alert's exit must not raise its retry
 * count (its back-off after a broker failure). docs/decisions/targets-breakeven.md, "An exit and a close whose
 * outcome is unknown: review".
 */

type Db = Awaited<ReturnType<typeof connectedTrader>>['db']
const requestOf = (db: Db, alertId: string) =>
  db.selectFrom('flatten_requests').select(['done_at', 'outcome', 'reason', 'attempts']).where('alert_id', '=', alertId).executeTakeFirst()
const WORKING = new Set(['PendingNew', 'Working', 'Suspended'])

t.test('the kill switch with a partial close whose outcome is unknown: the position is flattened now, never left held without its stop', async (t) => {
  const { broker, app, db, config, record, close } = await bracketWithUnknownClose(t)
  t.equal(netMnq(broker), 5, 'the close has not reached the broker: 5 held')

  const response = await app.inject({ method: 'POST', url: '/api/kill-switch', headers: identityHeaders(config, 'u-0') })
  t.equal(response.statusCode, 200, response.body)
  const working = () => broker.orders().filter((order) => order.accountId === 9000 && WORKING.has(order.ordStatus))
  // Never held without a stop: flattened, or its stop still working.
  t.ok(netMnq(broker) === 0 || working().some((order) => /\.sl\d*$/.test(order.clOrdId ?? '')), `after the kill switch: ${netMnq(broker)} held, working: ${JSON.stringify(working().map((order) => order.clOrdId))}`)
  t.match(response.json().killSwitch, { outcome: 'done' }, 'the kill switch flattened the contract of our trade')
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { status: 'closed', result: 'Session End' })
  const exit = await db.selectFrom('flatten_requests').select(['outcome']).where('user_id', '=', 'u-0').where('close_part', 'is', null).where('done_at', 'is not', null).executeTakeFirstOrThrow()
  t.match(exit.outcome, /position of 5 is being flattened.*partial close pc-\d+ .*not confirmed.*check the MNQZ6 position/, 'the exit says it did not wait for the close, and to check the position')

  // The broker carries the close out after all: the account is short its 2, with no trade (the trade-off: a
  // kill switch never waits); the reconciliation flattens it, no working order protecting it.
  t.equal(broker.release('order/placeorder'), 1, 'the close was held at the broker')
  await eventually(() => netMnq(broker) === -2)
  await app.trading.flattens.run('u-0', { force: true })
  await eventually(async () => (await requestOf(db, close.alertId))?.done_at != null)
  await app.trading.keeper.idle()
  await eventually(async () => {
    await app.trading.reconciler.reconcileAll()
    return netMnq(broker) === 0
  })
  t.equal(working().length, 0, 'nothing left working')
})

t.test('a risk halt with a partial close whose outcome is unknown: everything is flattened now', async (t) => {
  const { broker, app, db, record } = await bracketWithUnknownClose(t)
  const session = app.feeds.session('u-0')
  if (!session) throw new Error('no session')
  t.equal(await app.trading.flattens.flattenEverything('u-0', session, 'risk halt: test'), 'done', 'the halt flattened, nothing waits')
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { status: 'closed' })
  broker.release('order/placeorder')
})

t.test("an alert's exit waiting for a close whose outcome is unknown: its waits are not tries, so a broker failure after them is tried again soon", async (t) => {
  const { broker, app, db, close } = await bracketWithUnknownClose(t, 'server_error')
  const exit = mnqExit({ closes: 'LONG', result: 'TP' })
  await publishAlert(app, exit)
  await eventually(async () => /waits for the partial close/.test((await requestOf(db, exit.alertId))?.reason ?? ''))
  // It waits a few times more (looked at again each second).
  for (let wait = 0; wait < 3; wait++) {
    await sql`UPDATE flatten_requests SET next_attempt_at = now() WHERE alert_id = ${exit.alertId}`.execute(db)
    await app.trading.flattens.run('u-0')
    t.match((await requestOf(db, exit.alertId))?.reason, /waits for the partial close pc-\d+ .*outcome is unknown/)
  }
  // The close's grace is over; the liquidation is answered 503 (not carried out).
  await sql`UPDATE flatten_requests SET part_sent_at = part_sent_at - interval '61 seconds' WHERE alert_id = ${close.alertId}`.execute(db)
  broker.interfere('order/liquidateposition', { kind: 'server_error' }, 1)
  await sql`UPDATE flatten_requests SET next_attempt_at = now() WHERE alert_id = ${exit.alertId}`.execute(db)
  await app.trading.flattens.run('u-0')
  const failed = await requestOf(db, exit.alertId)
  t.equal(netMnq(broker), 5, 'the liquidation was not carried out')
  t.match(failed?.reason, /the broker did not answer the exit .*tried again in 2 s/, 'its first try after the waits is tried again after the first back-off')
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null)
  t.equal(netMnq(broker), 0, 'flattened on its next try')
})

t.test("the kill switch while a source's exit (a sized close) waits for its unknown outcome: the kill switch's flatten is carried out, not swallowed by the source's look", async (t) => {
  const { broker, app, db, config, house } = await traderWithSource(t)
  const spec = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, spec)
  const specTrade = await openedTrade(db, (await settledRecord(db, spec.alertId)).id)
  const fromHouse = mnqEntry({ userId: null, sourceId: house, sl: 20900, tp: 21200 })
  await publishAlert(app, fromHouse)
  const houseTrade = await openedTrade(db, (await settledRecord(db, fromHouse.alertId)).id)
  await app.trading.keeper.idle()
  const held = Number(specTrade.quantity) + Number(houseTrade.quantity)
  t.equal(netMnq(broker), held, 'both trades are in the one position')

  // The source's exit is a sized close (the spec route's trade shares the position); its send times out.
  broker.interfere('order/placeorder', { kind: 'late' }, 1)
  const exit = mnqExit({ sourceId: house, result: 'TP' })
  await publishAlert(app, exit)
  await eventually(async () => /did not answer/.test((await requestOf(db, exit.alertId))?.reason ?? ''))
  t.equal(netMnq(broker), held, "the source's close has not reached the broker")

  const response = await app.inject({ method: 'POST', url: '/api/kill-switch', headers: identityHeaders(config, 'u-0') })
  t.equal(response.statusCode, 200, response.body)
  const working = () => broker.orders().filter((order) => order.accountId === 9000 && WORKING.has(order.ordStatus))
  t.ok(netMnq(broker) === 0 || working().some((order) => /\.sl\d*$/.test(order.clOrdId ?? '')), `after the kill switch: ${netMnq(broker)} held, working: ${JSON.stringify(working().map((order) => order.clOrdId))}`)
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, specTrade.alert_record_id!), { status: 'closed', result: 'Session End' }, "the spec route's trade is closed by the kill switch")
  broker.release('order/placeorder')
})
