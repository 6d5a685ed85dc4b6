import t, { type Test } from 'tap'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { signInThroughProvider } from '@signals/dev-oidc-provider/test-client'
import { startTracing, stopTracing } from '@signals/telemetry'
import { waitFor } from '@signals/test-support'
import { startPlatformServices } from './platform-harness.ts'

// Issue 21 item 5: one trace follows an alert from the webhook at the gateway, through ingest and NATS,
// into the connector's decision, the order at the (paper) broker and its fill; an admin's replay of a
// refused webhook continues the admin's request. Every service runs in this process with the real SDK and
// an in-memory exporter (a real SDK exporter, read instead of sent).

const ADMIN = 'admin@tracing.test'
const exporter = new InMemorySpanExporter()

const describe = (span: ReadableSpan) => `${span.instrumentationScope.name}: ${span.name}`

type Api = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>

/** The admin signed in through the gateway: an API client carrying the session. */
async function signedIn(gateway: string, publicUrl: string): Promise<Api> {
  const start = await fetch(`${gateway}/auth/google`, { redirect: 'manual' })
  const loginCookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').join('; ')
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.get('location') as string, email: ADMIN })
  const callback = new URL(callbackUrl)
  const answer = await fetch(`${gateway}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: loginCookies } })
  const session = answer.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').find((cookie) => cookie.startsWith('signals.sid='))
  const headers = { cookie: session as string, origin: publicUrl, 'content-type': 'application/json' }
  return async (method, path, body) => {
    const response = await fetch(`${gateway}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return (await response.json()) as Record<string, unknown>
  }
}

/** The spans of the trace `first` belongs to, once every name in `expected` is among them. */
async function traceOf(t: Test, first: ReadableSpan, expected: readonly string[], context: () => Promise<unknown>) {
  const traceId = first.spanContext().traceId
  const inTrace = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId)
  await waitFor(() => (expected.every((name) => inTrace().some((span) => describe(span) === name)) ? true : undefined), {
    what: 'every step in one trace',
    timeoutMs: 20_000,
    intervalMs: 50,
  }).catch(async (error: unknown) => {
    t.fail(`${String(error)}; in the trace: ${inTrace().map(describe).join(', ')}; ${JSON.stringify(await context())}`)
  })
  const spans = inTrace()
  const one = (name: string) => spans.find((span) => describe(span) === name) as ReadableSpan
  const parentOf = (name: string) => one(name).parentSpanContext?.spanId
  const idOf = (name: string) => one(name).spanContext().spanId
  return { one, parentOf, idOf }
}

const spanOf = (scope: string, requestId: string | null) =>
  waitFor(() => exporter.getFinishedSpans().find((span) => span.instrumentationScope.name === scope && span.attributes['request.id'] === requestId), {
    what: `the ${scope} span of request ${requestId}`,
  })

t.test('tracing across the platform', async (t) => {
  await startTracing({ service: 'signals-test', exporter, immediate: true })
  t.teardown(() => stopTracing())
  const platform = await startPlatformServices(t, {
    adminEmail: ADMIN,
    brokerAccounts: [{ name: 'demo', password: 'demo-pass', userId: 1000, accountId: 9000, accountName: 'PAPER9000' }],
  })
  const { publicUrl, gatewayUrl: gateway, broker } = platform
  broker?.setPrice('MNQZ6', '21000')
  const api = await signedIn(gateway, publicUrl)
  const userId = ((await api('GET', '/auth/me')).user as { userId: string }).userId
  await api('PUT', '/api/broker-credentials', { broker: 'paper', environment: 'demo', accountId: '9000', username: 'demo', password: 'demo-pass' })
  await api('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })
  await waitFor(async () => ((await api('GET', '/api/live-trading-status')).status as { brokerConnection?: { connected: boolean } } | undefined)?.brokerConnection?.connected === true || undefined, {
    what: 'the broker feed to connect',
    timeoutMs: 20_000,
    intervalMs: 100,
  })

  t.test('one trace shows webhook, publish, consume, the records stored, decision, order and fill', async (t) => {
    // 50 points of stop at $2 a point: 5 contracts on the default budget, filled at the market.
    const entry = { action: 'Buy', symbol: 'CME_MINI:MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, user_id: userId, indicator: 'Breakout' }
    const accepted = await fetch(`${gateway}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(entry) })
    t.equal(accepted.status, 200)
    const webhookId = accepted.headers.get('x-request-id')

    // The gateway's span of this webhook starts the trace; everything after it shares its trace id.
    const webhook = await spanOf('gateway', webhookId)
    const { one, parentOf, idOf } = await traceOf(
      t,
      webhook,
      [
        'gateway: POST /webhook/*',
        'ingest: POST /webhook/alert',
        'ingest: publish alerts.entry',
        'broker-connector: consume alerts.entry',
        'broker-connector: INSERT alerts',
        'broker-connector: decision',
        'broker-connector: order',
        'broker-connector: fill',
      ],
      () => api('GET', '/api/alerts'),
    )
    t.equal(parentOf('ingest: POST /webhook/alert'), idOf('gateway: POST /webhook/*'), 'ingest continues the gateway span (traceparent over HTTP)')
    t.equal(parentOf('broker-connector: consume alerts.entry'), idOf('ingest: publish alerts.entry'), 'the consumer continues the publish (traceparent in the NATS headers)')
    t.equal(parentOf('broker-connector: INSERT alerts'), idOf('broker-connector: consume alerts.entry'), "the records' INSERT is a span of the delivery")
    t.match(one('broker-connector: INSERT alerts').attributes, { 'db.operation.name': 'INSERT', 'db.collection.name': 'alerts' })
    t.equal(parentOf('broker-connector: decision'), idOf('broker-connector: consume alerts.entry'), 'the decision is made inside the delivery')
    t.equal(parentOf('broker-connector: fill'), idOf('broker-connector: order'), 'the fill belongs to its order')
    t.equal(one('ingest: POST /webhook/alert').attributes['request.id'], webhookId, 'the request id is on the spans too')
  })

  t.test("an admin's replay of a refused webhook: ingest's span is a child of the admin's request", async (t) => {
    const refused = await fetch(`${gateway}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'Buy', symbol: 'MNQ1!' }) })
    t.equal(refused.status, 400, 'an entry naming no user is refused')
    const logged = await waitFor(async () => ((await api('GET', '/api/admin/intake?outcome=missing_user_id')).entries as { id: string }[] | undefined)?.[0], {
      what: 'the refusal in the intake log',
    })
    const replayed = await api('POST', `/api/admin/intake/${logged.id}/replay`, {})
    t.match(replayed, { success: true, replay: { statusCode: 400 } }, 'ingest answered the replay (refused again: still no user)')
    const admin = await waitFor(() => exporter.getFinishedSpans().find((span) => describe(span) === 'admin: POST /api/admin/intake/:id/replay'), { what: "the admin's replay span" })
    const { parentOf, idOf } = await traceOf(t, admin, ['gateway: POST /api/admin/*', 'admin: POST /api/admin/intake/:id/replay', 'ingest: POST /webhook/alert'], async () => replayed)
    t.equal(parentOf('ingest: POST /webhook/alert'), idOf('admin: POST /api/admin/intake/:id/replay'), "the replayed webhook continues the admin's request (traceparent)")
    t.equal(parentOf('admin: POST /api/admin/intake/:id/replay'), idOf('gateway: POST /api/admin/*'))
    // The refused webhook's own trace is linked from the replay: its ingest span, kept with the intake entry.
    const original = exporter.getFinishedSpans().find((span) => describe(span) === 'ingest: POST /webhook/alert' && span.attributes['request.id'] === refused.headers.get('x-request-id'))
    t.ok(original, "the refused webhook's ingest span")
    t.same(admin.links.map((link) => [link.context.traceId, link.context.spanId]), [[original?.spanContext().traceId, original?.spanContext().spanId]], "the replay links the refused webhook's trace")
  })
})
