import t from 'tap'
import { deleteNamespaceStreams, testNamespace, TEST_NATS_URL } from '@signals/test-support'
import { connectBus, DEFAULT_STREAM_MAX_BYTES } from '../src/index.ts'

const MiB = 1024 * 1024

t.test('every stream has a byte bound: the default, or the one a service is configured with, kept by the others (issue 22 item 7)', async (t) => {
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const first = await connectBus({ url: TEST_NATS_URL, name: 'bounds-test', namespace })
  t.teardown(() => first.close())
  const maxBytesOf = async (stream: string) => (await first.jsm.streams.info(first.stream(stream))).config.max_bytes
  t.equal(await maxBytesOf('ALERTS'), DEFAULT_STREAM_MAX_BYTES.alerts, 'ALERTS has the default bound')
  t.equal(await maxBytesOf('INTAKE'), DEFAULT_STREAM_MAX_BYTES.intake, 'INTAKE has the default bound')
  t.equal(await maxBytesOf('FEEDS'), DEFAULT_STREAM_MAX_BYTES.feeds)
  t.equal(await maxBytesOf('DEAD_LETTERS'), DEFAULT_STREAM_MAX_BYTES.deadLetters)

  const configured = await connectBus({ url: TEST_NATS_URL, name: 'bounds-test', namespace, streamMaxBytes: { intake: 3 * MiB } })
  await configured.close()
  t.equal(await maxBytesOf('INTAKE'), 3 * MiB, 'a configured bound is applied to the existing stream')

  const other = await connectBus({ url: TEST_NATS_URL, name: 'bounds-test', namespace })
  await other.close()
  t.equal(await maxBytesOf('INTAKE'), 3 * MiB, 'a service without the setting keeps the bound the stream has')

  // A stream made before bounds existed (unbounded) gets the default from the next service that starts.
  await first.jsm.streams.update(first.stream('ALERTS'), { max_bytes: -1 })
  const later = await connectBus({ url: TEST_NATS_URL, name: 'bounds-test', namespace })
  await later.close()
  t.equal(await maxBytesOf('ALERTS'), DEFAULT_STREAM_MAX_BYTES.alerts, 'an unbounded stream is bounded')
})
