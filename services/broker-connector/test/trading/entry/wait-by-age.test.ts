import t from 'tap'
import { Durables } from '../../../src/intake/plugin.ts'
import { waitFor } from '@signals/test-support'
import { publishAlert } from '../../helper.ts'
import type { App } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, recordOf, settledRecord, tradingApp } from '../../trading-helper.ts'

/** How often the entry consumer has delivered messages (redeliveries included): one message here. */
const deliveries = async (app: App) => (await app.bus.jsm.consumers.info(app.bus.stream('ALERTS'), Durables.entry)).delivered.consumer_seq
const deadLetters = async (app: App) => (await app.bus.jsm.streams.info(app.bus.stream('DEAD_LETTERS'))).state.messages

t.test('a record younger than the wait limit waits past the delivery budget, and is placed once the session is up', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  // A budget of 2 deliveries, redelivered every 200 ms at most: the record's 60 s wait outlasts it many times.
  const { app, db, config } = await tradingApp(t, broker, { CONSUMER_MAX_ATTEMPTS: '2', CONSUMER_BACKOFF_MAX_MS: '200', ENTRY_SESSION_WAIT_MS: '60000' })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  const alert = mnqEntry()
  await publishAlert(app, alert)
  // Whichever comes first: five deliveries, or the record decided (the delivery count deciding, as it did).
  // The record may not be written yet on the first looks (the consumer has not had the message).
  const statusOf = async () => (await db.selectFrom('alerts').select('status').where('alert_id', '=', alert.alertId).executeTakeFirst())?.status
  await waitFor(async () => ((await deliveries(app)) >= 5 || ((await statusOf()) ?? 'received') !== 'received' ? true : undefined), { timeoutMs: 20_000, intervalMs: 50 })
  const waiting = await recordOf(db, alert.alertId)
  t.equal(waiting.status, 'received', `still waiting for the session after ${await deliveries(app)} deliveries (budget 2)`)
  t.equal(await deadLetters(app), 0, 'nothing dead-lettered')

  await connect(app, 'u-0')
  const placed = await settledRecord(db, alert.alertId)
  t.equal(placed.status, 'placed', 'placed once the session was up')
  t.ok(broker.orders().length > 0, 'its bracket is at the broker')
})

t.test('a record older than the wait limit fails on its first delivery, with the reason on the record', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await tradingApp(t, broker, { ENTRY_SESSION_WAIT_MS: '1000' })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  const alert = mnqEntry({ receivedAt: new Date(Date.now() - 5_000).toISOString() })
  await publishAlert(app, alert)
  const failed = await settledRecord(db, alert.alertId)
  t.match(failed, { status: 'failed', reason: /^broker connection not up: no connected broker session for [5-9] s after the alert/ })
  t.equal(await deliveries(app), 1, 'decided on the first delivery, by its age')
  t.equal(broker.orders().length, 0, 'nothing sent')
})
