import t, { type Test } from 'tap'
import { loadConfig } from '@signals/config'
import { deleteNamespaceStreams, testNamespace } from '@signals/test-support'
import { buildApp as buildIngestApp } from '../../ingest/src/app.ts'
import { ConfigSchema as IngestConfigSchema } from '../../ingest/src/config.ts'
import { INTERNAL_AUTH_SECRET, startPlatform } from './helper.ts'

/** Request ids of every JSON log line that has one. */
const requestIds = (lines: readonly string[]) => lines.map((line) => (JSON.parse(line) as { reqId?: string }).reqId).filter((id): id is string => id !== undefined)

function capture() {
  const lines: string[] = []
  return { lines, stream: { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream }
}

/** The gateway in front of a real ingest (both logging at info into the test), as deployed. */
async function gatewayBeforeIngest(t: Test) {
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const ingestLog = capture()
  const ingest = await buildIngestApp(
    loadConfig(IngestConfigSchema, { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'test', BUS_NAMESPACE: namespace, INTERNAL_AUTH_SECRET }),
    { loggerStream: ingestLog.stream },
  )
  await ingest.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => ingest.close())
  const address = ingest.server.address()
  const ingestUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const gatewayLog = capture()
  const { gateway } = await startPlatform(t, { LOG_LEVEL: 'info' }, { loggerStream: gatewayLog.stream, upstreams: { ingest: ingestUrl } })
  return { gateway, gatewayLog: gatewayLog.lines, ingestLog: ingestLog.lines }
}

const webhook = { method: 'POST' as const, url: '/webhook/alert', payload: { action: 'buy', symbol: 'NQ1!', user_id: 'u1' } }

t.test('one id follows a webhook from the gateway into ingest, and two requests never share one', async (t) => {
  const { gateway, gatewayLog, ingestLog } = await gatewayBeforeIngest(t)
  const first = await gateway.inject(webhook)
  const second = await gateway.inject(webhook)
  t.equal(first.statusCode, 200, first.body)
  const firstId = first.headers['x-request-id']
  const secondId = second.headers['x-request-id']
  t.type(firstId, 'string')
  t.not(firstId, secondId, 'each request has its own id')
  t.notMatch(String(firstId), /^req-/, "not Fastify's per-process counter")
  for (const id of [firstId, secondId]) {
    t.ok(requestIds(gatewayLog).includes(String(id)), `the gateway logged under ${String(id)}`)
    t.ok(requestIds(ingestLog).includes(String(id)), `ingest logged under ${String(id)}`)
  }
  t.same(new Set(requestIds(ingestLog)), new Set([firstId, secondId]), 'ingest logged under no other id')
})

t.test("a caller's sane x-request-id is kept end to end; a bad one is replaced", async (t) => {
  const { gateway, ingestLog } = await gatewayBeforeIngest(t)
  const chosen = 'lb-7f3a9c2e-0001'
  const kept = await gateway.inject({ ...webhook, headers: { 'x-request-id': chosen } })
  t.equal(kept.headers['x-request-id'], chosen)
  t.ok(requestIds(ingestLog).includes(chosen), 'ingest logged under the caller id')
  for (const bad of ['short', 'has space in it', 'x'.repeat(129), 'angle<brackets>-in-it']) {
    const replaced = await gateway.inject({ ...webhook, headers: { 'x-request-id': bad } })
    t.not(replaced.headers['x-request-id'], bad, `${JSON.stringify(bad)} is not used`)
    t.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/)
  }
  t.notOk(requestIds(ingestLog).includes('short'))
})
