import type { Test } from 'tap'
import Type from 'typebox'
import { contract } from '@signals/contracts'
import { eventually as pollUntil, TEST_NATS_URL, deleteNamespaceStreams, testNamespace } from '@signals/test-support'
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
