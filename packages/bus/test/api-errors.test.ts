import t from 'tap'
import { deleteNamespaceStreams, testNamespace, TEST_NATS_URL } from '@signals/test-support'
import { connectBus, isWrongRevision, openBucket } from '../src/index.ts'
import { isAlreadyCreated } from '../src/api-errors.ts'

t.test('isWrongRevision: a refused compare-and-set, and nothing else', async (t) => {
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'kv-test', namespace })
  t.teardown(() => bus.close())
  const bucket = await openBucket(bus, 'LEASES_TEST', { ttlMs: 60_000 })
  t.equal((await bucket.status()).ttl, 60_000, 'the bucket keeps its entries for the TTL')

  const first = await bucket.create('shard.1', 'a')
  const refusal = async (work: () => Promise<unknown>) => {
    try {
      await work()
    } catch (error) {
      return error
    }
    return null
  }
  t.ok(isWrongRevision(await refusal(() => bucket.create('shard.1', 'b'))), 'create on a held key')
  const second = await bucket.update('shard.1', 'c', first)
  t.ok(isWrongRevision(await refusal(() => bucket.update('shard.1', 'd', first))), 'update with a revision the key moved on from')
  t.equal((await bucket.get('shard.1'))?.string(), 'c', 'the refused writes changed nothing')
  t.ok(isWrongRevision(await refusal(() => bucket.delete('shard.1', { previousSeq: first }))), 'delete with an old revision')
  await bucket.delete('shard.1', { previousSeq: second })
  t.ok(await bucket.create('shard.1', 'e'), 'a deleted key can be created again')

  t.notOk(isWrongRevision(new Error('wrong last sequence: 3')), 'a plain error with the same words is not one')
  t.notOk(isWrongRevision(await refusal(() => bus.jsm.streams.info('NO_SUCH_STREAM_HERE'))), 'another JetStream error is not one')
})

t.test('isAlreadyCreated: a stream another instance created first, by code', async (t) => {
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'api-errors-test', namespace })
  t.teardown(() => bus.close())
  const name = bus.stream('CREATED_TWICE')
  await bus.jsm.streams.add({ name, subjects: [`${name}.a`] })
  let error: unknown = null
  await bus.jsm.streams.add({ name, subjects: [`${name}.b`] }).catch((caught: unknown) => (error = caught))
  t.ok(isAlreadyCreated(error), 'a second create of the same stream name')
  t.notOk(isAlreadyCreated(new Error('stream name already in use')), 'not by its words')
  t.notOk(isWrongRevision(error), 'and it is not a refused compare-and-set')
})
