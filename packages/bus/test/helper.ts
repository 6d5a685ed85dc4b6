import type { Test } from 'tap'
import Type from 'typebox'
import { contract } from '@signals/contracts'
import { eventually as pollUntil, TEST_NATS_URL, deleteNamespaceStreams, testNamespace } from '@signals/test-support'
import type { ConsumerInfo } from '@nats-io/jetstream'
import { connectBus, type Bus } from '../src/index.ts'

/** A bus on the shared NATS server, in a namespace of this test's own; streams removed afterwards. */
export async function testBus(t: Test, url = TEST_NATS_URL): Promise<Bus> {
  const namespace = testNamespace()
  const bus = await connectBus({ url, name: 'bus-test', namespace })
  t.teardown(async () => {
    await bus.close()
    if (url === TEST_NATS_URL) await deleteNamespaceStreams(namespace)
  })
  return bus
}

export const Ping = contract(Type.Object({ version: Type.Literal(1), n: Type.Integer() }, { additionalProperties: false }))

/** Resolves when `predicate` holds, polling every 20 ms; rejects after `timeoutMs`. */
export const eventually = (predicate: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> =>
  pollUntil(predicate, { timeoutMs, intervalMs: 20 })

/**
 * Waits until the server has the durable consumer's messages up to stream sequence `sequence` acknowledged
 * (acked or terminated) and nothing pending or awaiting an ack: none of them can be delivered again.
 */
export async function acknowledgedUpTo(bus: Bus, stream: string, durable: string, sequence: number): Promise<ConsumerInfo> {
  let info: ConsumerInfo | undefined
  await eventually(async () => {
    info = await bus.jsm.consumers.info(bus.stream(stream), durable)
    return info.ack_floor.stream_seq >= sequence && info.num_ack_pending === 0 && info.num_pending === 0
  })
  return info as ConsumerInfo
}
