import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import type { NormalizedAlert } from '@signals/contracts'
import { eventually, publishAlert, type App } from '../../helper.ts'
import { settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq } from '../positions/exit-helper.ts'
import { databaseBehindProxy, type LostReplyProxy } from './lost-reply-proxy.ts'
import { closeTwo, exitsOf, openWithTargets, specAndHouseTrades, withTargets } from './targets-helper.ts'

/**
 * A close's mark (`part_sent_at`, committed before its order leaves) whose answer is lost on the way back:
 * Postgres committed it, the connector never saw it (docs/decisions/targets-breakeven.md, "A mark whose
 * answer is lost"). The mark runs on the exit lock's connection, and a lost answer is that connection gone:
 * the catch's put-back (on the same connection) cannot run, the mark stands, and the close is given up once
 * its minute is over, its cut put back then, once. These passed on main's code: they pin that it stays so.
 */
const MARK = /UPDATE flatten_requests SET part_sent_at = (?!NULL)/

const requestOf = (db: Kysely<Database>, alertId: string) =>
  db.selectFrom('flatten_requests').select(['reason', 'outcome', 'part_sent_at', 'done_at']).where('alert_id', '=', alertId).executeTakeFirst()

/** Publishes the exit with its mark's answer to be lost, and waits until the run that lost it has ended. */
async function publishWithMarkLost(app: App, db: Kysely<Database>, proxy: LostReplyProxy, exit: NormalizedAlert) {
  const lost = proxy.loseReplyOf(MARK)
  await publishAlert(app, exit)
  await lost
  await eventually(async () => (await requestOf(db, exit.alertId))?.reason != null)
  await app.trading.flattens.idle()
  await app.trading.keeper.idle()
}

/** The close's minute of being looked for is over: the next attempt gives it up. */
async function minuteOver(db: Kysely<Database>, alertId: string) {
  await sql`UPDATE flatten_requests SET part_sent_at = part_sent_at - interval '5 minutes', next_attempt_at = now() WHERE alert_id = ${alertId}`.execute(db)
  await eventually(async () => (await requestOf(db, alertId))?.done_at != null)
}

t.test('a partial close whose mark committed but whose answer was lost: nothing sent, its cut put back once, never twice', async (t) => {
  const proxy = await databaseBehindProxy(t)
  const { broker, app, db, record } = await openWithTargets(t, withTargets(), { DATABASE_URL: proxy.url })
  await app.trading.keeper.idle()
  const exit = closeTwo()
  await publishWithMarkLost(app, db, proxy, exit)
  t.ok((await requestOf(db, exit.alertId))?.part_sent_at, 'Postgres committed the mark whose answer was lost')
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith('pc-')).length, 0, 'the close was never sent')
  t.equal(exitsOf(broker, record.id).stops, 3, 'while marked, its cut stands (nothing put back on the lost connection)')

  await minuteOver(db, exit.alertId)
  await app.trading.keeper.idle()
  await app.trading.reconciler.reconcileAll()
  t.match((await requestOf(db, exit.alertId))?.outcome, /never confirmed.*so what was cut for it was put back/)
  t.equal(netMnq(broker), 5, 'nothing closed at the broker')
  t.equal(exitsOf(broker, record.id).stops, 5, 'the stops cover the 5 held, never more')
  t.match((await tradeOfRecord(db, record.id))?.exit_note, /a stop for their 2 contract\(s\) was placed at 20950/)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})

t.test("a source's exit whose mark committed but whose answer was lost: nothing sent, its cut put back once, never twice", async (t) => {
  const proxy = await databaseBehindProxy(t)
  const { broker, app, db, house, fromHouse, houseRecord, specQuantity } = await specAndHouseTrades(t, { DATABASE_URL: proxy.url })
  const exit = mnqExit({ sourceId: house })
  await publishWithMarkLost(app, db, proxy, exit)
  t.ok((await requestOf(db, exit.alertId))?.part_sent_at, 'Postgres committed the mark whose answer was lost')
  t.equal(broker.orders().filter((order) => order.clOrdId?.startsWith('pc-')).length, 0, 'the exit was never sent')
  t.equal(exitsOf(broker, houseRecord.id).stops, 0, 'while marked, its cut stands')

  await minuteOver(db, exit.alertId)
  await app.trading.keeper.idle()
  await app.trading.reconciler.reconcileAll()
  t.equal(netMnq(broker), specQuantity + 2, 'nothing closed at the broker')
  t.equal(exitsOf(broker, houseRecord.id).stops, 2, "the house trade's 2 contracts have a stop again, never more")
  t.match((await settledRecord(db, fromHouse.alertId)).reason, /the source's exit was never confirmed and the targets cut for it are gone; a stop for their 2 contract\(s\) was placed at 20950/)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), specQuantity, "the house trade's stop price reached: its 2 contracts closed, the spec route's kept")
})
