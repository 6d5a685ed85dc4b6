import { connectBus } from '@signals/bus'
import { TEST_NATS_URL } from './namespace.ts'

/** Deletes every stream and key-value bucket of a test namespace (`T<hex>_...`, `KV_T<hex>_...`) so the shared server does not fill up. */
export async function deleteNamespaceStreams(namespace: string, url = TEST_NATS_URL): Promise<void> {
  const bus = await connectBus({ url, name: 'test-cleanup', ensureTopology: false })
  try {
    const prefix = `${namespace.toUpperCase()}_`
    for await (const name of bus.jsm.streams.names()) {
      if (name.startsWith(prefix) || name.startsWith(`KV_${prefix}`)) await bus.jsm.streams.delete(name)
    }
  } finally {
    await bus.close()
  }
}

/**
 * Deletes streams (and key-value buckets) of test namespaces (`T<10 hex>_...`, `KV_T<10 hex>_...`) left by crashed runs: those created more than
 * `olderThanMs` ago, so a run beside this one keeps its own. They matter: NATS 2.9 reserves a bounded
 * stream's max_bytes against the server's storage for as long as it exists.
 */
export async function deleteStaleTestStreams(olderThanMs = 2 * 60 * 60 * 1000, url = TEST_NATS_URL): Promise<number> {
  const bus = await connectBus({ url, name: 'test-cleanup', ensureTopology: false })
  let deleted = 0
  try {
    for await (const info of bus.jsm.streams.list()) {
      const name = info.config.name
      if (/^(KV_)?T[0-9A-F]{10}_/.test(name) && Date.now() - Date.parse(info.created) > olderThanMs) {
        await bus.jsm.streams.delete(name)
        deleted++
      }
    }
  } finally {
    await bus.close()
  }
  return deleted
}
