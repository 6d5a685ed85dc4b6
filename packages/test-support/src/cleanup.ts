import { connectBus } from '@signals/bus'
import { TEST_NATS_URL } from './namespace.ts'

/** Deletes every stream of a test namespace (`T<hex>_...`) so the shared server does not fill up. */
export async function deleteNamespaceStreams(namespace: string, url = TEST_NATS_URL): Promise<void> {
  const bus = await connectBus({ url, name: 'test-cleanup', ensureTopology: false })
  try {
    const prefix = `${namespace.toUpperCase()}_`
    for await (const name of bus.jsm.streams.names()) {
      if (name.startsWith(prefix)) await bus.jsm.streams.delete(name)
    }
  } finally {
    await bus.close()
  }
}

/** Deletes streams of test namespaces left by crashed runs (any `T<10 hex>_` stream). */
export async function deleteAllTestStreams(url = TEST_NATS_URL): Promise<number> {
  const bus = await connectBus({ url, name: 'test-cleanup', ensureTopology: false })
  let deleted = 0
  try {
    for await (const name of bus.jsm.streams.names()) {
      if (/^T[0-9A-F]{10}_/.test(name)) {
        await bus.jsm.streams.delete(name)
        deleted++
      }
    }
  } finally {
    await bus.close()
  }
  return deleted
}
