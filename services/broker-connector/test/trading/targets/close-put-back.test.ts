import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { tradeOfRecord } from '../../trading-helper.ts'
import { netMnq } from '../positions/exit-helper.ts'
import { closeTwo, exitsOf, openPairs } from './targets-helper.ts'

/**
 * A partial close cuts the trade's pairs before it is sent; what it did not close gets its stop back
 * (docs/decisions/targets-breakeven.md, the stop 30 review's open MED findings): a close whose outcome stays
 * unknown and is given up, and a close filled only in part. Each failed on the code before the fix (stops 3
 * for the 5, or the 4, held).
 */

const requestOf = (db: Awaited<ReturnType<typeof openPairs>>['db'], alertId: string) =>
  db.selectFrom('flatten_requests').select(['id', 'reason', 'outcome', 'part_sent_at', 'done_at']).where('alert_id', '=', alertId).executeTakeFirst()

t.test('a partial close whose outcome stays unknown and is given up, the broker still holding the position: what was cut for it is put back', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  // The close is not carried out and its answer is lost (503): an unknown outcome, looked for, never sent again.
  broker.interfere('order/placeorder', { kind: 'server_error' }, 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => (await requestOf(db, exit.alertId))?.part_sent_at != null && /did not answer/.test((await requestOf(db, exit.alertId))?.reason ?? ''))
  t.equal(exitsOf(broker, record.id).stops, 3, 'while the close may still come, its cut stands (a stop put back could close more than is held)')
  // The minute it is looked for is over: the next attempt gives it up.
  await sql`UPDATE flatten_requests SET part_sent_at = now() - interval '5 minutes', next_attempt_at = now() WHERE alert_id = ${exit.alertId}`.execute(db)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null)
  t.match((await requestOf(db, exit.alertId))?.outcome, /never confirmed/)
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), 5, 'nothing closed at the broker')
  t.equal(exitsOf(broker, record.id).stops, 5, 'the stops cover the 5 held again')
  t.match((await tradeOfRecord(db, record.id))?.exit_note, /the partial close was never confirmed and the targets cut for it are gone; a stop for their 2 contract\(s\) was placed at 20950/)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})

t.test('a partial close whose answer was lost but which the broker carried out: found by its tag, nothing is put back', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  // Carried out at the broker, its answer lost (503): looked for by its tag and found.
  broker.interfere('order/placeorder', { kind: 'server_error', carriedOut: true }, 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null)
  await app.trading.keeper.idle()
  t.equal(exitsOf(broker, record.id).stops, 3, 'the stops cover the 3 held, never more')
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})

t.test('a partial close filled only in part: the unfilled part gets its stop back, never while it may still fill', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  // Each order fills one contract per price event: the close of 2 fills 1, the other waits.
  broker.setLiquidity('MNQZ6', 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(() => netMnq(broker) === 4)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 4)
  await app.trading.keeper.idle()
  const close = broker.orders().find((order) => order.clOrdId?.startsWith('pc-') && order.ordStatus === 'Working')
  t.ok(close, 'the rest of the close is still working')
  t.equal(exitsOf(broker, record.id).stops, 3, 'while the rest may still fill: the stops cover what will be left')
  await app.trading.reconciler.reconcileAll()
  t.equal(exitsOf(broker, record.id).stops, 3, 'a pass adds nothing while it may still fill')
  await eventually(async () => (await requestOf(db, exit.alertId))?.done_at != null)
  // The rest is cancelled (the trader, or the broker at the session's end): 1 contract was not closed. The
  // keeper sees the close done and checks the stops at once (no pass needed).
  await app.feeds.session('u-0')!.cancelOrder(close!.id)
  await eventually(() => exitsOf(broker, record.id).stops === 4)
  t.equal(exitsOf(broker, record.id).stops, 4, 'the stops cover the 4 held')
  await app.trading.keeper.idle()
  await app.trading.reconciler.reconcileAll()
  t.equal(exitsOf(broker, record.id).stops, 4, 'a pass places nothing more')
  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})

t.test('a partial close failing on the database after its cut (not a broker error): what was cut is put back', async (t) => {
  const { broker, app, db, record } = await openPairs(t)
  // The mark before the send fails in Postgres: no broker error, nothing sent, the pairs already cut.
  await sql`CREATE FUNCTION refuse_part_sent() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'part_sent_at refused by the test'; END $$`.execute(db)
  await sql`CREATE TRIGGER refuse_part_sent BEFORE UPDATE OF part_sent_at ON flatten_requests FOR EACH ROW WHEN (NEW.part_sent_at IS NOT NULL) EXECUTE FUNCTION refuse_part_sent()`.execute(db)
  const cancels = () => broker.requests.filter((request) => request.endpoint === 'order/cancelorder').length
  const before = cancels()
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(() => cancels() > before)
  await app.trading.flattens.idle()
  await app.trading.keeper.idle()
  t.equal(netMnq(broker), 5, 'nothing closed at the broker')
  t.equal(exitsOf(broker, record.id).stops, 5, 'the stops cover the 5 held again')
  t.match((await tradeOfRecord(db, record.id))?.exit_note, /the partial close was not carried out and the targets cut for it are gone/)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})
