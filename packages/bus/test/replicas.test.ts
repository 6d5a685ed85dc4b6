import t from 'tap'
import { Buckets, Streams } from '@signals/contracts'
import { deleteNamespaceStreams, eventually, startPrivateNatsCluster, waitFor, testNamespace, TEST_NATS_URL } from '@signals/test-support'
import { connectBus, openBucket, type BusLogger } from '../src/index.ts'

/** A logger that keeps what it is told, for asserting on the replica mismatch message. */
function recordingLogger() {
  const errors: { object: object; message: string }[] = []
  const logger: BusLogger = { info: () => undefined, warn: () => undefined, error: (object, message) => errors.push({ object, message }) }
  return { logger, errors }
}

t.test('on a single server: streams and buckets have one replica; BUS_REPLICAS above 1 fails start-up', async (t) => {
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'replicas-test', namespace })
  t.teardown(() => bus.close())
  t.equal((await bus.jsm.streams.info(bus.stream('ALERTS'))).config.num_replicas, 1, 'streams default to one replica')
  const bucket = await openBucket(bus, Buckets.feedStatus)
  t.equal((await bucket.status()).replicas, 1, 'buckets default to one replica')
  // The server would store "3" on an existing stream without replicating it: refused before any update.
  await t.rejects(connectBus({ url: TEST_NATS_URL, name: 'replicas-test', namespace, replicas: 3 }), /BUS_REPLICAS is 3 but the NATS server .* is not in a cluster/)
  await t.rejects(connectBus({ url: TEST_NATS_URL, name: 'replicas-test', namespace: testNamespace(), replicas: 3 }), /not in a cluster/, 'new streams too')
  t.equal((await bus.jsm.streams.info(bus.stream('ALERTS'))).config.num_replicas, 1, 'the existing stream is untouched')
})

const cluster = await startPrivateNatsCluster(3)
t.teardown(() => cluster.destroy())

t.test('on a three-node cluster: R3 streams and buckets, R1 ones moved to R3, and the bus outlives one node', async (t) => {
  const namespace = testNamespace()
  const single = await connectBus({ url: cluster.urls, name: 'replicas-test', namespace })
  await openBucket(single, Buckets.feedStatus)
  t.equal((await single.jsm.streams.info(single.stream('ALERTS'))).config.num_replicas, 1)
  await single.close()

  const { logger, errors } = recordingLogger()
  const bus = await connectBus({ url: cluster.urls, name: 'replicas-test', namespace, replicas: 3, logger })
  t.teardown(() => bus.close())
  for (const stream of ['ALERTS', 'FEEDS', 'INTAKE', 'NOTIFICATIONS', 'DEAD_LETTERS']) {
    t.equal((await bus.jsm.streams.info(bus.stream(stream))).config.num_replicas, 3, `${stream} moved to three replicas`)
  }
  const bucket = await openBucket(bus, Buckets.feedStatus)
  t.equal((await bucket.status()).replicas, 3, 'the existing bucket moved to three replicas')
  t.same(errors, [], 'nothing refused')

  // The node the client is connected to goes: it reconnects to another from the list, and R3 keeps the data.
  await eventually(() => bucket.put('u-1', 'running').then(() => true, () => false), { timeoutMs: 30_000, intervalMs: 250 })
  const connectedPort = Number(bus.nc.getServer().split(':').at(-1))
  const node = cluster.nodes.find((candidate) => candidate.port === connectedPort)
  if (!node) throw new Error(`connected to ${bus.nc.getServer()}, not a cluster node`)
  await node.kill()
  const value = await waitFor(() => bucket.get('u-1').then((entry) => entry?.string(), () => undefined), { timeoutMs: 30_000, intervalMs: 250 })
  t.equal(value, 'running', 'the value survives the loss of the node the client was on')
  t.not(bus.nc.getServer(), `127.0.0.1:${connectedPort}`, 'the client moved to another node')
  await node.start()
})

t.test('on a three-node cluster, more replicas than nodes: new streams fail start-up, existing ones keep theirs and say so', async (t) => {
  const namespace = testNamespace()
  await t.rejects(connectBus({ url: cluster.urls, name: 'replicas-test', namespace, replicas: 5 }), /no suitable peers/)
  const bus = await connectBus({ url: cluster.urls, name: 'replicas-test', namespace, replicas: 3 })
  t.teardown(() => bus.close())
  const { logger, errors } = recordingLogger()
  const over = await connectBus({ url: cluster.urls, name: 'replicas-test', namespace, replicas: 5, logger })
  t.teardown(() => over.close())
  t.equal((await over.jsm.streams.info(over.stream('ALERTS'))).config.num_replicas, 3, 'the stream keeps three replicas')
  t.equal(errors.length, Object.keys(Streams).length, 'one error per stream')
  t.match(errors[0]?.message, /keeps 3 replica\(s\): the server refused 5 \(BUS_REPLICAS\)/)
})
