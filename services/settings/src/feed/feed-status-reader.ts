import { Kvm, type KV } from '@nats-io/kv'
import { openBucket, type Bus, type BusLogger } from '@signals/bus'
import { Buckets, FeedStatusV1, contract, feedStatusKey, type FeedStatus } from '@signals/contracts'

const feedStatusContract = contract(FeedStatusV1)

/** What live-trading-status says about the user's broker feed. */
export type BrokerConnection =
  | { state: FeedStatus['state']; detail: string | null; updatedAt: string; lastHeardAt: string | null }
  /** No entry: the connector has never run (or has forgotten) this user's feed. */
  | { state: 'not_started'; detail: null; updatedAt: null; lastHeardAt: null }
  /** The bus did not answer in time: we do not know, and say so rather than guess. */
  | { state: 'unknown'; detail: string; updatedAt: null; lastHeardAt: null }

export interface FeedStatusReader {
  read(userId: string): Promise<BrokerConnection>
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

/**
 * Reads `FEED_STATUS` (written by the broker connector). The bucket is opened once and reused; a failure
 * to open or read is reported as state `unknown`, never as an error of the whole status request.
 */
export function createFeedStatusReader(bus: Bus, options: { timeoutMs: number; logger: BusLogger }): FeedStatusReader {
  let bucket: Promise<KV> | undefined
  const open = () => {
    // The connector creates the bucket too; should its settings ever differ from ours, `create` refuses
    // and plain `open` still reads it.
    bucket ??= openBucket(bus, Buckets.feedStatus)
      .catch(() => new Kvm(bus.nc).open(bus.stream(Buckets.feedStatus)))
      .catch((error: unknown) => {
        bucket = undefined
        throw error
      })
    return bucket
  }

  return {
    async read(userId: string): Promise<BrokerConnection> {
      let entry
      try {
        entry = await withTimeout(
          open().then((kv) => kv.get(feedStatusKey(userId))),
          options.timeoutMs,
        )
      } catch (error) {
        options.logger.warn({ err: error }, 'feed status could not be read')
        return { state: 'unknown', detail: 'broker connection state is unavailable right now', updatedAt: null, lastHeardAt: null }
      }
      if (!entry || entry.operation !== 'PUT') return { state: 'not_started', detail: null, updatedAt: null, lastHeardAt: null }
      let parsed: unknown
      try {
        parsed = entry.json()
      } catch {
        parsed = undefined
      }
      const validation = feedStatusContract.validate(parsed)
      if (!validation.ok || validation.value.userId !== userId) {
        options.logger.warn({ revision: entry.revision }, 'feed status entry does not match FeedStatusV1; ignored')
        return { state: 'unknown', detail: 'broker connection state is unreadable', updatedAt: null, lastHeardAt: null }
      }
      const { state, detail, updatedAt, lastHeardAt } = validation.value
      return { state, detail, updatedAt, lastHeardAt: lastHeardAt ?? null }
    },
  }
}
