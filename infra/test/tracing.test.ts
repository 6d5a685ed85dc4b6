import t from 'tap'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { signInThroughProvider } from '@signals/dev-oidc-provider/test-client'
import { startTracing, stopTracing } from '@signals/telemetry'
import { waitFor } from '@signals/test-support'
import { startPlatformServices } from './platform-harness.ts'

// Issue 21 item 5: one trace follows an alert from the webhook at the gateway, through ingest and NATS,
// into the connector's decision, the order at the (paper) broker and its fill. Every service runs in this
// process with the real SDK and an in-memory exporter (a real SDK exporter, read instead of sent).

const ADMIN = 'admin@tracing.test'
const exporter = new InMemorySpanExporter()

const describe = (span: ReadableSpan) => `${span.instrumentationScope.name}: ${span.name}`

t.test('one trace shows webhook, publish, consume, decision, order and fill', async (t) => {
  await startTracing({ service: 'signals-test', exporter, immediate: true })
  t.teardown(() => stopTracing())
  const platform = await startPlatformServices(t, {
    adminEmail: ADMIN,
    brokerAccounts: [{ name: 'demo', password: 'demo-pass', userId: 1000, accountId: 9000, accountName: 'PAPER9000' }],
  })
  const { publicUrl, gatewayUrl: gateway, broker } = platform
  broker?.setPrice('MNQZ6', '21000')

  const start = await fetch(`${gateway}/auth/google`, { redirect: 'manual' })
  const loginCookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').join('; ')
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.get('location') as string, email: ADMIN })
  const callback = new URL(callbackUrl)
  const signedIn = await fetch(`${gateway}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: loginCookies } })
  const session = signedIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').find((cookie) => cookie.startsWith('signals.sid='))
  const headers = { cookie: session as string, origin: publicUrl, 'content-type': 'application/json' }
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${gateway}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return (await response.json()) as { user?: { userId: string }; status?: { brokerConnection?: { connected: boolean } }; trades?: unknown[] }
  }
  const userId = (await api('GET', '/auth/me')).user?.userId as string
  await api('PUT', '/api/broker-credentials', { broker: 'paper', environment: 'demo', accountId: '9000', username: 'demo', password: 'demo-pass' })
  await api('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })
  await waitFor(async () => ((await api('GET', '/api/live-trading-status')).status?.brokerConnection?.connected === true ? true : undefined), {
    what: 'the broker feed to connect',
    timeoutMs: 20_000,
    intervalMs: 100,
  })

  // 50 points of stop at $2 a point: 5 contracts on the default budget, filled at the market.
  const entry = { action: 'Buy', symbol: 'CME_MINI:MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, user_id: userId, indicator: 'Breakout' }
  const accepted = await fetch(`${gateway}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(entry) })
  t.equal(accepted.status, 200)
  const webhookId = accepted.headers.get('x-request-id')

  // The gateway's span of this webhook starts the trace; everything after it shares its trace id.
  const webhook = await waitFor(() => exporter.getFinishedSpans().find((span) => span.instrumentationScope.name === 'gateway' && span.attributes['request.id'] === webhookId), {
    what: "the gateway's webhook span",
  })
  const traceId = webhook.spanContext().traceId
  const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId)
  const expected = [
    'gateway: POST /webhook/*',
    'ingest: POST /webhook/alert',
    'ingest: publish alerts.entry',
    'broker-connector: consume alerts.entry',
    'broker-connector: decision',
    'broker-connector: order',
    'broker-connector: fill',
  ]
  await waitFor(() => (expected.every((name) => inTrace().some((span) => describe(span) === name)) ? true : undefined), {
    what: 'every step in one trace',
    timeoutMs: 20_000,
    intervalMs: 50,
  }).catch(async (error: unknown) => {
    t.fail(`${String(error)}; in the trace: ${inTrace().map(describe).join(', ')}; alerts: ${JSON.stringify(await api('GET', '/api/alerts'))}`)
  })
  const spans = inTrace()
  const one = (name: string) => spans.find((span) => describe(span) === name) as ReadableSpan
  const parentOf = (name: string) => one(name).parentSpanContext?.spanId
  t.equal(parentOf('ingest: POST /webhook/alert'), one('gateway: POST /webhook/*').spanContext().spanId, 'ingest continues the gateway span (traceparent over HTTP)')
  t.equal(parentOf('broker-connector: consume alerts.entry'), one('ingest: publish alerts.entry').spanContext().spanId, 'the consumer continues the publish (traceparent in the NATS headers)')
  t.equal(parentOf('broker-connector: decision'), one('broker-connector: consume alerts.entry').spanContext().spanId, 'the decision is made inside the delivery')
  t.equal(parentOf('broker-connector: fill'), one('broker-connector: order').spanContext().spanId, 'the fill belongs to its order')
  t.equal(one('ingest: POST /webhook/alert').attributes['request.id'], webhookId, 'the request id is on the spans too')
})
