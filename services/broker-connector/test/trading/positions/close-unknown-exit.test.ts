import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { tradeOfRecord, type connectedTrader } from '../../trading-helper.ts'
import { closeTwo } from '../targets/targets-helper.ts'
import { bracketWithUnknownClose, closedTrade, mnqExit, netMnq, openBracket } from './exit-helper.ts'

/**
 * With exit plans off (today's live path): a partial close whose send got no answer before the client's
 * time-out (outcome unknown), then an exit alert that flattens the contract. The broker carries the close out
 * after the client gave up on it (`late`, released by hand): a liquidation sized from the position read before
 * it lands sells what the close sells too, and the account turns over (the order-path model's seed -495680393
 * path "11"; docs/decisions/targets-breakeven.md, "An exit and a close whose outcome is unknown"). The exit, and a
 * second partial close, wait until the close is listed at the broker or its grace is over.
 */

const requestOf = (db: Awaited<ReturnType<typeof connectedTrader>>['db'], alertId: string) =>
  db.selectFrom('flatten_requests').select(['done_at', 'outcome', 'reason']).where('alert_id', '=', alertId).executeTakeFirst()

t.test('a partial close whose outcome is unknown, then an exit alert: the exit waits for the close, and the account ends flat, never short', async (t) => {
  // The close's order reaches the broker only when released: its send times out at the connector.
  const { broker, app, db, record, close } = await bracketWithUnknownClose(t)
  t.equal(netMnq(broker), 5, 'the close has not reached the broker: 5 held')

  const exit = mnqExit({ closes: 'LONG', result: 'TP' })
  await publishAlert(app, exit)
  // The exit is tried now; with the close's outcome unknown it must not sell the 2 the close may still sell.
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null || /partial close/.test((await requestOf(db, exit.alertId))?.reason ?? ''))
  await app.trading.flattens.idle()
  // The trade's note is the last word of either request: the close, looked for again once its back-off is over,
  // writes its own ("not listed by the broker yet") between the exit's waits. The exit's is seen while it waits.
  const waitNote = /partial close .*outcome is unknown/
  const toldWaiting = await eventually(async () => waitNote.test((await tradeOfRecord(db, record.id))?.exit_note ?? '')).then(() => true, () => false)
  const waiting = await tradeOfRecord(db, record.id)
  t.equal(netMnq(broker), 5, 'while the exit waits: nothing flattened')

  // The broker carries the close out now, after the client gave up on it.
  t.equal(broker.release('order/placeorder'), 1, 'the close was held at the broker')
  // Both requests are tried again at once (not after their back-off).
  await sql`UPDATE flatten_requests SET next_attempt_at = now() WHERE done_at IS NULL`.execute(db)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null && (await requestOf(db, close.alertId))?.done_at != null, 30_000)
  const trade = await closedTrade(db, record.id)
  await app.trading.flattens.idle()
  await app.trading.keeper.idle()

  t.equal(netMnq(broker), 0, 'everything landed: flat, never short')
  t.equal(broker.orders().filter((order) => order.ordStatus === 'Working').length, 0, 'no order left working')
  t.ok(toldWaiting, `while it waited, the trade said the exit waits for the close whose outcome is unknown (last said: ${waiting?.exit_note})`)
  t.equal(trade.status, 'closed', 'the trade is closed')
  t.equal(Number(trade.quantity), 3, 'the close took 2 of its 5, the exit the 3 left')
  t.match((await requestOf(db, close.alertId))?.outcome, /^partial close sent to the broker \(order \d+, Filled\)/, "the close's outcome says the broker carried it out")
  t.match((await requestOf(db, exit.alertId))?.outcome, /position of 3 is being flattened/, "the exit's outcome says it flattened the 3 left, not the 5 read before the close landed")
})

t.test('a partial close carried out first, then an exit alert: the exit flattens what the broker holds after it', async (t) => {
  const { broker, app, db, record } = await openBracket(t)
  const close = closeTwo()
  await publishAlert(app, close)
  await eventually(() => netMnq(broker) === 3)
  const exit = mnqExit({ closes: 'LONG', result: 'TP' })
  await publishAlert(app, exit)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null)
  const trade = await closedTrade(db, record.id)
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), 0, 'flat, never short')
  t.equal(broker.orders().filter((order) => order.ordStatus === 'Working').length, 0, 'no order left working')
  t.match((await requestOf(db, exit.alertId))?.outcome, /position of 3 is being flattened/, 'the exit flattened the 3 left')
  t.equal(trade.status, 'closed', 'the trade is closed')
})

t.test('a partial close the broker never carries out (answered 503): the exit waits out its grace, then flattens what is held, and the close is said never confirmed', async (t) => {
  // Answered 503 and not carried out: the connector cannot know, the close is only looked for.
  const { broker, app, db, record, close } = await bracketWithUnknownClose(t, 'server_error')
  const exit = mnqExit({ closes: 'LONG', result: 'TP' })
  await publishAlert(app, exit)
  await eventually(async () => /waits for the partial close pc-\d+ .*outcome is unknown/.test((await requestOf(db, exit.alertId))?.reason ?? ''))
  t.equal(netMnq(broker), 5, 'while the close may still land: nothing flattened')
  // The close's grace (60 s from its send) is over, without waiting it out.
  await sql`UPDATE flatten_requests SET part_sent_at = part_sent_at - interval '61 seconds' WHERE alert_id = ${close.alertId}`.execute(db)
  await sql`UPDATE flatten_requests SET next_attempt_at = now() WHERE done_at IS NULL`.execute(db)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null && (await requestOf(db, close.alertId))?.done_at != null, 30_000)
  const trade = await closedTrade(db, record.id)
  await app.trading.flattens.idle()
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), 0, 'flat')
  t.match((await requestOf(db, exit.alertId))?.outcome, /position of 5 is being flattened/, 'the exit flattened the 5 held')
  t.match((await requestOf(db, close.alertId))?.outcome, /outcome unknown.*never confirmed/, "the close's outcome says it was never confirmed")
  t.equal(trade.status, 'closed', 'the trade is closed')
})

t.test('a partial close whose outcome is unknown, then a second partial close: the second waits, and is sized from what the first left', async (t) => {
  const { broker, app, db, record, close: first } = await bracketWithUnknownClose(t)
  const second = mnqExit({ closes: 'LONG', quantity: 4, closePart: { quantity: 4, percent: null, remaining: null } })
  await publishAlert(app, second)
  await eventually(async () => (await requestOf(db, second.alertId))?.done_at != null || /waits for the partial close/.test((await requestOf(db, second.alertId))?.reason ?? ''))
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), 5, 'the second close did not go while the first may still land')
  t.equal(broker.release('order/placeorder'), 1, 'the first close was held at the broker')
  await sql`UPDATE flatten_requests SET next_attempt_at = now() WHERE done_at IS NULL`.execute(db)
  await eventually(async () => (await requestOf(db, first.alertId))?.done_at != null && (await requestOf(db, second.alertId))?.done_at != null, 30_000)
  const trade = await closedTrade(db, record.id)
  await app.trading.flattens.idle()
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), 0, 'flat, never short')
  t.match((await requestOf(db, second.alertId))?.outcome, /partial close sent to the broker: 3 of the LONG MNQZ6 position of 3 /, 'the second close sold the 3 the first left')
  t.equal(trade.status, 'closed', 'the trade is closed')
})
