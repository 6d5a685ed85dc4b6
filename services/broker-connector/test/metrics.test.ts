import t from 'tap'
import { eventually, publishAlert, type App } from './helper.ts'
import { connectedTrader, feedCommand, liveTrader, mnqEntry, settledRecord } from './trading-helper.ts'

/** The value of one series on /metrics (0 when it is not there). */
async function metric(app: App, series: string): Promise<number> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `) || candidate.startsWith(`${series.replace(/}$/, ',')}`))
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1))
}

t.test('orders by outcome and the alert-to-order latency follow the entries; feeds up and down follow the sessions', async (t) => {
  const { app, db, config } = await connectedTrader(t)
  t.equal(await metric(app, 'connector_broker_feeds{state="up"}'), 1, "the trader's feed is up")
  t.equal(await metric(app, 'connector_broker_feeds{state="down"}'), 0)
  t.equal(await metric(app, 'connector_orders_total{outcome="placed"}'), 0)
  t.equal(await metric(app, 'connector_alert_to_order_seconds_count'), 0)

  const placed = mnqEntry()
  await publishAlert(app, placed)
  t.match(await settledRecord(db, placed.alertId), { status: 'placed' })
  await eventually(async () => (await metric(app, 'connector_orders_total{outcome="placed"}')) === 1)
  t.equal(await metric(app, 'connector_alert_to_order_seconds_count'), 1, 'one order accepted by the broker, timed')
  const seconds = await metric(app, 'connector_alert_to_order_seconds_sum')
  t.ok(seconds > 0 && seconds < 15, `from ingest's receipt to the broker's acceptance: ${seconds} s`)

  const refused = mnqEntry({ sl: null })
  await publishAlert(app, refused)
  t.match(await settledRecord(db, refused.alertId), { status: 'refused' })
  await eventually(async () => (await metric(app, 'connector_orders_total{outcome="refused"}')) === 1)
  t.equal(await metric(app, 'connector_alert_to_order_seconds_count'), 1, 'a refusal sends nothing, so it is not timed')

  // A second live trader whose broker login fails: held here, down.
  await liveTrader(db, config, { userId: 'u-1', username: 'nobody-at-this-broker' })
  await feedCommand(app, 'u-1', 'start')
  await eventually(async () => (await metric(app, 'connector_broker_feeds{state="down"}')) === 1)
  t.equal(await metric(app, 'connector_broker_feeds{state="up"}'), 1)
  await feedCommand(app, 'u-0', 'stop')
  await eventually(async () => (await metric(app, 'connector_broker_feeds{state="up"}')) === 0)
})
