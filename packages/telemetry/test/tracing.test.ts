import t from 'tap'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startTracingFromEnvironment, stopTracing, tracerFor, withSpan } from '../src/index.ts'

t.test('off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: no tracer, and withSpan only runs the work', async (t) => {
  t.equal(await startTracingFromEnvironment('test', {}), false)
  t.equal(tracerFor('test'), null)
  t.equal(await withSpan('test', 'work', {}, async (span) => (span === null ? 'ran without a span' : 'traced')), 'ran without a span')
})

t.test('a value that is not an http(s) URL is refused with the variable named', async (t) => {
  await t.rejects(startTracingFromEnvironment('test', { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), /OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL/)
  t.equal(tracerFor('test'), null, 'still off')
})

t.test('set, spans go to the OTLP/HTTP receiver at <endpoint>/v1/traces, the last ones when tracing stops', async (t) => {
  const received: { url: string | undefined; bytes: number; contentType: string | undefined }[] = []
  const receiver = createServer((request, response) => {
    let bytes = 0
    request.on('data', (chunk: Buffer) => (bytes += chunk.length))
    request.on('end', () => {
      received.push({ url: request.url, bytes, contentType: request.headers['content-type'] })
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  t.teardown(() => receiver.close())
  const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  // The exporter reads the OTEL_* variables from the process environment.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint
  t.teardown(() => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  })
  t.equal(await startTracingFromEnvironment('test-service'), true)
  t.not(tracerFor('test-service'), null, 'on')
  t.equal(await withSpan('test-service', 'work', { answer: 42 }, async (span) => (span === null ? 'untraced' : 'traced')), 'traced')
  await stopTracing()
  t.equal(tracerFor('test-service'), null, 'off again')
  t.equal(received.length, 1, 'one export with the batch')
  t.match(received[0], { url: '/v1/traces', contentType: /application\/x-protobuf|application\/json/ })
  t.ok((received[0]?.bytes ?? 0) > 0)
})
