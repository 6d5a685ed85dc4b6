import type { FastifyBaseLogger } from 'fastify'
import { KvWatchInclude, type KvEntry } from '@nats-io/kv'
import { Buckets } from '@signals/contracts'
import { openBucket, type Bus } from '@signals/bus'

/** The part of a status a page shows as a change (the connector rewrites lastHeardAt every few seconds). */
function stateOf(entry: KvEntry): string {
  if (entry.operation !== 'PUT') return entry.operation
  try {
    const { state, detail } = entry.json<{ state?: unknown; detail?: unknown }>()
    return JSON.stringify([state, detail])
  } catch {
    return 'unreadable'
  }
}

/**
 * Calls `onChange(userId)` whenever a user's feed state changes in the FEED_STATUS bucket (the broker
 * connection shown by the live-trading indicator). Updates only: a page fetches the current state itself.
 * A rewrite with the same state and detail (the connector's periodic lastHeardAt refresh) is no change.
 */
export async function watchFeedStatus(bus: Bus, onChange: (userId: string) => void, log: FastifyBaseLogger): Promise<{ stop(): void }> {
  const bucket = await openBucket(bus, Buckets.feedStatus)
  const watcher = await bucket.watch({ key: '>', include: KvWatchInclude.UpdatesOnly })
  void (async () => {
    try {
      const last = new Map<string, string>()
      for await (const entry of watcher) {
        const state = stateOf(entry)
        if (last.get(entry.key) === state) continue
        last.set(entry.key, state)
        onChange(Buffer.from(entry.key, 'base64url').toString('utf8'))
      }
    } catch (error) {
      log.warn({ err: error }, 'feed status watch ended')
    }
  })()
  return { stop: () => watcher.stop() }
}
