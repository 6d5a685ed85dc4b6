import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { entryOrders, seen } from '../../broker-controls.ts'
import { connect, liveTrader, paperBroker, tradingApp } from '../../trading-helper.ts'
import { eventually, setLiveTrading } from '../../helper.ts'
import { orderOfGoneInstance, reserveId, stranded, SWEEP } from './stranded-records.ts'

// Issue 20, point 7: a record left `received` or `placing` past its time (its message lost, its holder
// gone) is found by a sweep and settled or failed with a reason; entry age is measured on Postgres' clock.
// The grace is never shorter than the age limit: both short here (the records below are minutes old).

const recordById = (db: Kysely<Database>, id: number) => db.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

async function settled(db: Kysely<Database>, id: number) {
  await eventually(async () => !['received', 'placing'].includes((await recordById(db, id)).status), 15_000)
  return recordById(db, id)
}

t.test('records left received: swept and failed with the reason the trader reads', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await tradingApp(t, broker, SWEEP)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  // A live trader whose broker login was never saved: no session will come.
  await sql`INSERT INTO users (user_id, email, approved) VALUES ('u-9', 'u-9@example.com', true)`.execute(db)
  await setLiveTrading(db, ['u-9'], { enabled: true, autoPlaceOrders: true })
  await connect(app, 'u-0')
  const lost = await stranded(db, { status: 'received', receivedAt: '-5 minutes' })
  // Ingest's clock ran an hour ahead: the age is never less than the time since Postgres recorded the alert.
  const aheadClock = await stranded(db, { status: 'received', receivedAt: '1 hour', createdAt: '-5 minutes' })
  const noSession = await stranded(db, { userId: 'u-9', status: 'received', receivedAt: '-2 minutes' })
  const fresh = await stranded(db, { status: 'received', receivedAt: '0 seconds' })

  t.match(await settled(db, lost), { status: 'failed', refusal_code: 'stale_alert', reason: /^not placed: the alert was 30\d s old when it could be placed \(limit 5 s\)$/ })
  t.match(await settled(db, aheadClock), { status: 'failed', refusal_code: 'stale_alert', reason: /^not placed: the alert was 30\d s old/ })
  t.match(await settled(db, noSession), { status: 'failed', reason: /^broker connection not up: no connected broker session for 12\d s after the alert/ })
  t.match(await recordById(db, fresh), { status: 'received' }, 'a fresh record is its message\'s to settle, not the sweep\'s')
  t.equal(seen(broker, 'order/placeOSO'), 0, 'nothing sent for a stale alert')
})

t.test('records left placing by a gone holder: found by their tag and placed, or failed "outcome unknown" after the grace; never sent', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, SWEEP)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  // Connected first: the session-open reconciliation has run, so only the sweep can find these.
  await connect(app, 'u-0')
  // The order a gone instance sent for a record; then the record it left.
  const reserved = await reserveId(db)
  const sent = await orderOfGoneInstance(broker, `sig-${reserved}`)
  const atBroker = await stranded(db, { id: reserved, status: 'placing', receivedAt: '-3 minutes', sentAt: '-3 minutes' })
  const notAtBroker = await stranded(db, { status: 'placing', receivedAt: '-3 minutes', sentAt: '-3 minutes' })

  t.match(await settled(db, atBroker), { status: 'placed', entry_order_id: sent.entryOrderId, stop_order_id: sent.stopOrderId, target_order_id: sent.targetOrderId, send_attempts: 1 })
  const unknown = await settled(db, notAtBroker)
  t.match(unknown, { status: 'failed', refusal_code: 'outcome_unknown', send_attempts: 1, reason: /^outcome unknown: check the broker/ })
  t.equal(seen(broker, 'order/placeOSO'), 1, 'only the gone instance\'s order: nothing sent by the sweep')
  t.equal(entryOrders(broker, `sig-${notAtBroker}`).length, 0)
})

t.test('a record left placing while its trader has no session: failed "outcome unknown" after the grace, saying it could not be checked', async (t) => {
  const broker = await paperBroker(t)
  const { db } = await tradingApp(t, broker, SWEEP)
  await sql`INSERT INTO users (user_id, email, approved) VALUES ('u-9', 'u-9@example.com', true)`.execute(db)
  await setLiveTrading(db, ['u-9'], { enabled: false, autoPlaceOrders: false })
  const id = await stranded(db, { userId: 'u-9', status: 'placing', receivedAt: '-1 minute', sentAt: '-1 minute' })
  t.match(await settled(db, id), { status: 'failed', refusal_code: 'outcome_unknown', reason: /^outcome unknown: check the broker .*no connected broker session to check/ })
})

t.test('a record failed "outcome unknown" whose order turns up after all: corrected to placed at the next session open', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, SWEEP)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  const reserved = await reserveId(db)
  const id = await stranded(db, { id: reserved, status: 'placing', receivedAt: '-5 minutes', sentAt: '-5 minutes' })
  await sql`UPDATE alerts SET status = 'failed', refusal_code = 'outcome_unknown', reason = 'outcome unknown: check the broker', decided_at = now() WHERE id = ${id}`.execute(db)
  // The broker carried the order out after the record had failed (the connection was down meanwhile).
  const sent = await orderOfGoneInstance(broker, `sig-${reserved}`)
  await connect(app, 'u-0')
  await eventually(async () => (await recordById(db, id)).status === 'placed', 15_000)
  t.match(await recordById(db, id), { status: 'placed', entry_order_id: sent.entryOrderId, refusal_code: null, reason: null, send_attempts: 1 })
  t.equal(seen(broker, 'order/placeOSO'), 1, 'nothing sent by the connector')
})
