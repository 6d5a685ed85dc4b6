import type { FastifyBaseLogger } from 'fastify'
import { Kvm } from '@nats-io/kv'
import { openBucket, type Bus } from '@signals/bus'
import { Buckets, FeedStatusV1, NotificationEventV1, Subjects, contract } from '@signals/contracts'
import { FeedEventTracker } from './feed-events.ts'

const statusContract = contract(FeedStatusV1)
const eventContract = contract(NotificationEventV1)

export interface FeedStatusWatch {
  stop(): Promise<void>
}

/**
 * Watches `FEED_STATUS` and publishes `feed_down` and `broker_login_failed` on `notify.events`. Every
 * settings instance watches; the event id is the bucket revision, so the stream keeps one of them. A
 * notice that cannot be published is logged and not retried (the feed status page still shows it).
 */
export async function watchFeedStatus(bus: Bus, logger: FastifyBaseLogger): Promise<FeedStatusWatch> {
  const kv = await openBucket(bus, Buckets.feedStatus).catch(() => new Kvm(bus.nc).open(bus.stream(Buckets.feedStatus)))
  const tracker = new FeedEventTracker()
  const watcher = await kv.watch({ ignoreDeletes: true })
  const done = (async () => {
    for await (const entry of watcher) {
      let parsed: unknown
      try {
        parsed = entry.json()
      } catch {
        continue
      }
      if (!statusContract.check(parsed)) continue
      if (!entry.isUpdate) {
        tracker.seed(parsed)
        continue
      }
      const event = tracker.next(parsed, entry.revision)
      if (event === null) continue
      await bus.publish(Subjects.notificationEvent, eventContract, event, { messageId: event.eventId }).catch((error: unknown) => {
        logger.warn({ err: error, kind: event.kind }, 'feed notice not published')
      })
    }
  })()
  return {
    async stop() {
      watcher.stop()
      await done
    },
  }
}
