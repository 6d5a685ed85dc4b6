import t, { type Test } from 'tap'
import Type from 'typebox'
import { contract } from '@signals/contracts'
import { PermanentError } from '@signals/bus'
import { TEST_NATS_URL, deleteNamespaceStreams, eventually, testNamespace } from '@signals/test-support'
import { busPlugin, createServiceApp } from '../../src/index.ts'

const Ping = contract(Type.Object({ version: Type.Literal(1), n: Type.Integer() }, { additionalProperties: false }))

async function serviceWithBus(t: Test) {
  const namespace = testNamespace()
  const app = await createServiceApp({ service: 'kit-bus-test', logLevel: 'silent' })
  await app.register(busPlugin, { url: TEST_NATS_URL, namespace })
  await app.ready()
  t.teardown(async () => {
    await app.close()
    await deleteNamespaceStreams(namespace)
  })
  return app
}

/** The value of one series on /metrics (0 when it is not there yet). */
async function metric(app: Awaited<ReturnType<typeof serviceWithBus>>, name: string, labels: Record<string, string>): Promise<number> {
  const text = (await app.inject({ method: 'GET', url: '/metrics' })).body
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`)
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)))
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1))
}

t.test('a consumer behind shows its lag and unacknowledged messages; caught up, both are 0', async (t) => {
  const app = await serviceWithBus(t)
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  await app.bus.consume({ stream: 'ALERTS', durable: 'lagging', subject: 'alerts.entry', contract: Ping, handler: () => gate })
  await Promise.all(Array.from({ length: 100 }, (_, n) => app.bus.publish('alerts.entry', Ping, { version: 1, n }, { messageId: `lag-${n}` })))
  const labels = { stream: 'ALERTS', durable: 'lagging' }
  await eventually(async () => (await metric(app, 'bus_consumer_pending_messages', labels)) + (await metric(app, 'bus_consumer_ack_pending_messages', labels)) === 100)
  t.ok((await metric(app, 'bus_consumer_pending_messages', labels)) > 0, 'messages not yet given out are counted as lag')
  t.ok((await metric(app, 'bus_consumer_ack_pending_messages', labels)) > 0, 'the held ones wait for their ack')
  release()
  await eventually(async () => (await metric(app, 'bus_consumer_pending_messages', labels)) === 0 && (await metric(app, 'bus_consumer_ack_pending_messages', labels)) === 0)
  t.pass('caught up')
})

t.test('redeliveries and dead letters are counted per consumer', async (t) => {
  const app = await serviceWithBus(t)
  await app.bus.consume({
    stream: 'ALERTS',
    durable: 'flaky',
    subject: 'alerts.entry',
    contract: Ping,
    maxAttempts: 3,
    backoff: { initialMs: 10, maxMs: 20 },
    handler: async () => {
      throw new Error('always fails')
    },
  })
  await app.bus.consume({
    stream: 'ALERTS',
    durable: 'refusing',
    subject: 'alerts.result',
    contract: Ping,
    handler: async () => {
      throw new PermanentError('never acceptable')
    },
  })
  t.equal(await metric(app, 'bus_dead_letters_total', { durable: 'flaky' }), 0)
  await app.bus.publish('alerts.entry', Ping, { version: 1, n: 1 }, { messageId: 'flaky-1' })
  await app.bus.publish('alerts.result', Ping, { version: 1, n: 2 }, { messageId: 'refused-1' })
  await eventually(async () => (await metric(app, 'bus_dead_letters_total', { durable: 'flaky', subject: 'alerts.entry' })) === 1)
  await eventually(async () => (await metric(app, 'bus_dead_letters_total', { durable: 'refusing', subject: 'alerts.result' })) === 1)
  t.equal(await metric(app, 'bus_consumer_redeliveries_total', { durable: 'flaky' }), 2, 'deliveries two and three')
  t.equal(await metric(app, 'bus_consumer_redeliveries_total', { durable: 'refusing' }), 0, 'dead-lettered at the first delivery')
})
