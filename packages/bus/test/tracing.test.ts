import t from 'tap'
import Type from 'typebox'
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace'
import { contract } from '@signals/contracts'
import { startTracing, stopTracing, trace, withSpan } from '@signals/telemetry'
import { requestByContract, serveByContract } from '../src/index.ts'
import { Ping, eventually, testBus } from './helper.ts'

// Issue 21 item 5: the W3C trace context crosses NATS in the message headers, for JetStream publishes and
// for core request/reply, so the receiver's span is a child of the sender's. Real SDK, in-memory exporter.

const Pong = contract(Type.Object({ version: Type.Literal(1), doubled: Type.Integer() }, { additionalProperties: false }))
const quiet = { warn: () => undefined }
const texts = { answerer: 'test answerer', invalidRequest: 'not a Ping', failed: 'not answered' }
const exporter = new InMemorySpanExporter()

const spanNamed = (name: string) => exporter.getFinishedSpans().find((span) => span.name === name) as ReadableSpan
const idOf = (span: ReadableSpan) => span.spanContext().spanId

t.test('with tracing off a request carries no trace headers and the answer runs with no span', async (t) => {
  const bus = await testBus(t)
  const seen: { headers: boolean; span: boolean }[] = []
  const raw = bus.nc.subscribe(bus.subject('test.untraced'), {
    callback: (_error, message) => {
      seen.push({ headers: message.headers !== undefined, span: trace.getActiveSpan() !== undefined })
      message.respond(new TextEncoder().encode(JSON.stringify({ version: 1, doubled: 0 })))
    },
  })
  t.teardown(() => raw.unsubscribe())
  await bus.nc.flush()
  t.same(await requestByContract(bus, 'test.untraced', Ping, { version: 1, n: 0 }, Pong, 2_000), { version: 1, doubled: 0 })
  t.same(seen, [{ headers: false, span: false }])
})

t.test('tracing on', async (t) => {
  await startTracing({ service: 'bus-tracing-test', exporter, immediate: true })
  t.teardown(() => stopTracing())

  t.test('a request/reply: the answer runs in a span under the request span, itself under the caller', async (t) => {
    exporter.reset()
    const bus = await testBus(t)
    let activeInAnswer: string | undefined
    const served = serveByContract(
      bus,
      'test.double',
      { request: Ping, reply: Pong },
      async ({ n }) => {
        activeInAnswer = trace.getActiveSpan()?.spanContext().spanId
        return { version: 1 as const, doubled: n * 2 }
      },
      quiet,
      texts,
    )
    t.teardown(() => served.unsubscribe())
    await bus.nc.flush()
    const reply = await withSpan('caller', 'caller', {}, () => requestByContract(bus, 'test.double', Ping, { version: 1, n: 21 }, Pong, 2_000))
    t.same(reply, { version: 1, doubled: 42 })
    await eventually(() => exporter.getFinishedSpans().length === 3)
    const [caller, request, answer] = ['caller', 'request test.double', 'answer test.double'].map(spanNamed) as [ReadableSpan, ReadableSpan, ReadableSpan]
    t.equal(request.parentSpanContext?.spanId, idOf(caller), 'the request span is a child of the active span')
    t.equal(answer.parentSpanContext?.spanId, idOf(request), "the answer continues the request's trace (traceparent in the headers)")
    t.equal(answer.spanContext().traceId, caller.spanContext().traceId, 'one trace')
    t.equal(activeInAnswer, idOf(answer), 'the handler runs inside the answer span')
    t.equal(answer.instrumentationScope.name, 'bus-test', "spans are named after the bus's service")
  })

  t.test('a failed answer marks its span failed; no answer at all marks the request span failed', async (t) => {
    exporter.reset()
    const bus = await testBus(t)
    const served = serveByContract(bus, 'test.fails', { request: Ping, reply: Pong }, async () => Promise.reject(new Error('cannot')), quiet, texts)
    t.teardown(() => served.unsubscribe())
    await bus.nc.flush()
    t.equal(await requestByContract(bus, 'test.fails', Ping, { version: 1, n: 1 }, Pong, 2_000), null)
    await t.rejects(requestByContract(bus, 'test.nobody', Ping, { version: 1, n: 1 }, Pong, 300))
    await eventually(() => exporter.getFinishedSpans().length === 3)
    t.match(spanNamed('answer test.fails').status, { code: 2, message: 'cannot' })
    t.equal(spanNamed('request test.fails').status.code, 0, 'an empty reply is an answer: the request itself went through')
    t.equal(spanNamed('request test.nobody').status.code, 2)
  })

  t.test('a JetStream publish: the consumer span is a child of the publish span, the handler inside it', async (t) => {
    exporter.reset()
    const bus = await testBus(t)
    let activeInHandler: string | undefined
    await bus.consume({
      stream: 'ALERTS',
      durable: 'test-traced',
      subject: 'alerts.entry',
      contract: Ping,
      handler: async () => {
        activeInHandler = trace.getActiveSpan()?.spanContext().spanId
      },
    })
    await withSpan('caller', 'caller', {}, () => bus.publish('alerts.entry', Ping, { version: 1, n: 1 }, { messageId: 'traced-1' }))
    await eventually(() => exporter.getFinishedSpans().some((span) => span.name === 'consume alerts.entry'))
    const consume = spanNamed('consume alerts.entry')
    t.equal(spanNamed('publish alerts.entry').parentSpanContext?.spanId, idOf(spanNamed('caller')))
    t.equal(consume.parentSpanContext?.spanId, idOf(spanNamed('publish alerts.entry')))
    t.equal(activeInHandler, idOf(consume))
  })
})
