import type { FastifyBaseLogger } from 'fastify'
import { KvWatchInclude } from '@nats-io/kv'
import { Buckets } from '@signals/contracts'
import { openBucket, type Bus } from '@signals/bus'

/**
 * Calls `onChange(userId)` whenever a user's feed state changes in the FEED_STATUS bucket (the broker
 * connection shown by the live-trading indicator). Updates only: a page fetches the current state itself.
 */
export async function watchFeedStatus(bus: Bus, onChange: (userId: string) => void, log: FastifyBaseLogger): Promise<{ stop(): void }> {
  const bucket = await openBucket(bus, Buckets.feedStatus)
  const watcher = await bucket.watch({ key: '>', include: KvWatchInclude.UpdatesOnly })
  void (async () => {
    try {
      for await (const entry of watcher) onChange(Buffer.from(entry.key, 'base64url').toString('utf8'))
    } catch (error) {
      log.warn({ err: error }, 'feed status watch ended')
    }
  })()
  return { stop: () => watcher.stop() }
}
