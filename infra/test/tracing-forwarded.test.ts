import t from 'tap'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { startTracing, stopTracing } from '@signals/telemetry'
import { build, buildInstance, eventually, publishAlert } from '../../services/broker-connector/test/helper.ts'
import { liveTrader, mnqEntry, settledRecord } from '../../services/broker-connector/test/trading-helper.ts'
import { command } from '../../services/broker-connector/test/feeds/feed-helper.ts'
import { OWNERSHIP, paperBrokerFor } from '../../services/broker-connector/test/feeds/ownership-helper.ts'

// Issue 21 item 5: a connector instance that consumes an entry alert forwards the records of users whose
// feeds another instance holds to it (core NATS request/reply). The trace goes along in the request's
// headers: the holder's decision and order stay in the alert's trace. Two connector instances in this
// process, real Postgres, NATS and paper broker; the real SDK with an in-memory exporter.

const exporter = new InMemorySpanExporter()
const describe = (span: ReadableSpan) => `${span.instrumentationScope.name}: ${span.name}`

t.test("a record forwarded to the instance holding the user's feed keeps the alert's trace", async (t) => {
  await startTracing({ service: 'signals-test', exporter, immediate: true })
  t.teardown(() => stopTracing())
  const broker = await paperBrokerFor(t, 1)
  broker.setPrice('MNQZ6', '21000')
  const overrides = { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, ...OWNERSHIP }
  // The consuming instance holds no feed: each record of a user whose feed is held goes to the holder.
  const consuming = await build(t, overrides, { feeds: false, consumers: true })
  const holder = await buildInstance(t, consuming.config, { feeds: true, consumers: false })
  await liveTrader(consuming.db, consuming.config, { userId: 'forwarded-0', username: 'trader0' })
  await command(consuming.app, 'forwarded-0', 'start')
  await eventually(() => holder.feeds.connectedUsers().includes('forwarded-0'), 30_000)

  const alert = mnqEntry({ entryPrice: 21000, sl: 20950, tp: 21100 })
  await publishAlert(consuming.app, alert)
  t.equal((await settledRecord(consuming.db, alert.alertId, 30_000)).status, 'placed')

  const entries = `connector.${holder.feedOwners.instanceId}.entries`
  const publish = exporter.getFinishedSpans().find((span) => span.name === 'publish alerts.entry') as ReadableSpan
  const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === publish.spanContext().traceId)
  const expected = ['consume alerts.entry', `request ${entries}`, `answer ${entries}`, 'decision', 'order'].map((name) => `broker-connector: ${name}`)
  await eventually(() => expected.every((name) => inTrace().some((span) => describe(span) === name)), 20_000).catch((error: unknown) => {
    t.fail(`${String(error)}; in the trace: ${inTrace().map(describe).join(', ')}`)
  })
  const one = (name: string) => inTrace().find((span) => describe(span) === `broker-connector: ${name}`) as ReadableSpan
  const parentOf = (name: string) => one(name).parentSpanContext?.spanId
  const idOf = (name: string) => one(name).spanContext().spanId
  t.equal(parentOf(`request ${entries}`), idOf('consume alerts.entry'), 'the forward is made inside the delivery')
  t.equal(parentOf(`answer ${entries}`), idOf(`request ${entries}`), "the holder continues the request's trace (traceparent in the NATS headers)")
  t.equal(parentOf('decision'), idOf(`answer ${entries}`), 'the holder decides inside its answer')
  t.equal(one('order').attributes['entry.record_id'], (await settledRecord(consuming.db, alert.alertId)).id, "the order is the forwarded record's")
})
