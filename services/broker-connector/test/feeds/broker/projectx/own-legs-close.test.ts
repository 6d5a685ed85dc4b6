import t from 'tap'
import { setTimeout as sleepUntil } from 'node:timers/promises'
import { ProjectXAdapter } from '../../../../src/feeds/broker/projectx/adapter.ts'
import { publishAlert } from '../../../helper.ts'
import { mnqEntry, settledRecord } from '../../../trading-helper.ts'
import { databaseAway } from './database-away.ts'
import { ACCOUNTS, connectedProjectXTrader, eventually, legOrdersOf, netMnq } from './helper.ts'

// Stop 37 review (docs/decisions/projectx-adapter.md, "Stop 37's review"): a failed bringing-up of the legs
// placed by the connector is tried again by a timer of the account's own legs, which outlive the session. The
// app closed (a deploy), the timer still fired and worked against the closed pool: a warning per try. The
// feeds' close now closes the adapters: the timer is cleared, nothing more is queued.

/** The retry's wait as the connector runs (own-legs.ts RETRY_MS). */
const RETRY_MS = 5_000

t.test("the app closes while a retry of the own legs is due: the retry never runs, nothing is read or logged after the close", async (t) => {
  const database = databaseAway()
  const warnings: string[] = []
  const logger = { info: () => undefined, warn: (_fields: object, message: string) => void warnings.push(message) }
  const adapter = new ProjectXAdapter({ ownLegs: database.store, logger })
  const { broker, app, db } = await connectedProjectXTrader(t, { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' }], build: { brokerAdapters: { projectx: adapter } }, built: (db) => database.use(db) })
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => netMnq(broker) === 5 && legOrdersOf(broker, record.id).filter((order) => order.ordStatus === 'Working').length === 2)

  // The database goes away; the target fills: the done leg's work fails, and a retry is timed.
  database.away()
  broker.setPrice('MNQZ6', '21100')
  await eventually(() => warnings.some((message) => /could not be brought up/.test(message)))
  await app.close()
  const readsAtClose = database.calls.length
  const warningsAtClose = warnings.length
  // A timer of the retry's length set now fires after any retry timed before the close (Node runs timers of
  // one length in the order they were set): by then a retry left running has read the store and warned.
  await sleepUntil(RETRY_MS)
  t.equal(database.calls.length, readsAtClose, 'nothing read from the store after the close')
  t.same(warnings.slice(warningsAtClose), [], 'nothing logged after the close')
})
