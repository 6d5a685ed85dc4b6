import { KvWatchInclude, type KV } from '@nats-io/kv'
import { isWrongRevision, untilJetStreamReady } from '@signals/bus'
import { FeedLeaseV1, contract, type FeedLease } from '@signals/contracts'
import type { Logger } from '../../shared/logger.ts'
import { instanceKey, shardKey, shardOfKey } from './shard.ts'
import { settledWithin } from '../../shared/within.ts'

/** How long a close waits for each JetStream step (the tick in flight, the hand-over) before going on. */
const CLOSE_WAIT_MS = 2_000

const leaseContract = contract(FeedLeaseV1)

export interface ShardLeasesOptions {
  /** The FEED_OWNERS bucket (its TTL is the lease TTL). */
  bucket: KV
  instanceId: string
  shards: number
  ttlMs: number
  /** How often leases and presence are renewed and free shards looked for (about a fifth of the TTL). */
  tickMs: number
  logger: Logger
  /** The shard is now ours: open its users' feeds. */
  onAcquired(shard: number): void
  /** The shard is no longer ours (released, lost or fenced): close its feeds at once. */
  onReleased(shard: number): Promise<void>
}

interface Held {
  revision: number
  renewedAt: number
}

/**
 * One instance's shard leases (docs/decisions/feed-ownership.md). Every tick: presence and held leases
 * are renewed with compare-and-set (a failed one is a lost lease), leases not renewed for the TTL minus a
 * margin are given up (self-fence), extras over the fair share are released and free shards taken up to
 * it. Deletes of leases (a graceful hand-over) and new instances wake the loop at once.
 */
export class ShardLeases {
  readonly #held = new Map<number, Held>()
  #timer: NodeJS.Timeout | undefined
  #watch: { stop(): void } | undefined
  #running: Promise<void> = Promise.resolve()
  #closed = false
  #wakeQueued = false
  /** Presence keys seen: a new one (an instance joining) wakes the loop so extras are released at once. */
  readonly #seenInstances = new Set<string>()

  constructor(private readonly options: ShardLeasesOptions) {}

  /** Whether this instance holds the shard now (and has renewed it recently enough to act on it). */
  holds(shard: number): boolean {
    return this.#held.has(shard)
  }

  heldShards(): number[] {
    return [...this.#held.keys()]
  }

  async start(): Promise<void> {
    // The watch is a JetStream consumer: "not yet" from a cluster electing leaders is waited out (issue 21).
    const watcher = await untilJetStreamReady('the feed owners watched', () => this.options.bucket.watch({ key: '>', include: KvWatchInclude.UpdatesOnly }), { logger: this.options.logger })
    this.#watch = watcher
    void (async () => {
      for await (const entry of watcher) {
        const freed = entry.operation !== 'PUT' && shardOfKey(entry.key) !== null
        const joined = entry.operation === 'PUT' && entry.key.startsWith('instance.') && !this.#seenInstances.has(entry.key)
        if (joined) this.#seenInstances.add(entry.key)
        if (freed || joined) this.wake()
      }
    })().catch((error: unknown) => this.options.logger.warn({ err: error }, 'feed owners watch ended'))
    // The first round before returning: a lone instance holds every shard before it takes commands.
    this.#running = this.#tick().catch((error: unknown) => this.options.logger.warn({ err: error }, 'feed lease tick failed'))
    await this.#running
    this.#schedule(this.options.tickMs)
  }

  /** Runs a tick soon (coalesced). */
  wake(): void {
    if (this.#closed || this.#wakeQueued) return
    this.#wakeQueued = true
    void this.#running.then(() => {
      this.#wakeQueued = false
      this.#schedule(0)
    })
  }

  /**
   * Graceful: stops the loop, closes every held shard's feeds, then deletes its lease so another takes it at
   * once. Each wait on JetStream is bounded by CLOSE_WAIT_MS: while JetStream does not answer (a close after
   * a start that failed on it) each request would wait its full time-out, one after another, past the
   * process's close grace (issue 21). A lease not deleted then lapses after its TTL, as a crashed instance's.
   */
  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#timer)
    this.#watch?.stop()
    if (!(await settledWithin(this.#running, CLOSE_WAIT_MS))) this.options.logger.warn({}, 'feed lease tick still waiting on NATS at close; left to lapse')
    const held = [...this.#held]
    this.#held.clear()
    await Promise.all(held.map(([shard]) => this.options.onReleased(shard)))
    const handOver = Promise.all([
      ...held.map(([shard, { revision }]) => this.options.bucket.delete(shardKey(shard), { previousSeq: revision }).catch(() => undefined)),
      this.options.bucket.delete(instanceKey(this.options.instanceId)).catch(() => undefined),
    ])
    if (!(await settledWithin(handOver, CLOSE_WAIT_MS))) this.options.logger.warn({ shards: held.length }, 'feed leases not handed over at close (NATS not answering); they lapse after their TTL')
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#running = this.#tick()
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'feed lease tick failed'))
        .finally(() => this.#schedule(this.options.tickMs))
    }, delayMs)
  }

  #value(): string {
    const lease: FeedLease = { version: 1, instanceId: this.options.instanceId, renewedAt: new Date().toISOString() }
    return JSON.stringify(lease)
  }

  async #tick(): Promise<void> {
    const { bucket } = this.options
    this.#fence()
    await bucket.put(instanceKey(this.options.instanceId), this.#value())
    await this.#renew()
    const target = Math.ceil(this.options.shards / (await this.#liveInstances()))
    const extras = this.heldShards().slice(target)
    await Promise.all(extras.map((shard) => this.#release(shard)))
    if (this.#held.size < target) await this.#acquire(target)
  }

  /** Gives up shards not renewed for the TTL minus a margin: another instance may hold them by now. */
  #fence(): void {
    const limit = this.options.ttlMs - Math.max(this.options.tickMs, this.options.ttlMs / 5)
    for (const [shard, held] of this.#held) {
      if (Date.now() - held.renewedAt <= limit) continue
      this.options.logger.warn({ shard }, 'feed lease not renewed in time; its feeds are closed (self-fence)')
      this.#held.delete(shard)
      void this.options.onReleased(shard)
    }
  }

  async #renew(): Promise<void> {
    await Promise.all(
      this.heldShards().map(async (shard) => {
        const held = this.#held.get(shard)
        if (!held) return
        const startedAt = Date.now()
        try {
          held.revision = await this.options.bucket.update(shardKey(shard), this.#value(), held.revision)
          held.renewedAt = startedAt
        } catch (error) {
          if (!isWrongRevision(error)) throw error
          this.options.logger.warn({ shard }, 'feed lease lost to another instance; its feeds are closed')
          this.#held.delete(shard)
          await this.options.onReleased(shard)
        }
      }),
    )
  }

  async #liveInstances(): Promise<number> {
    let count = 0
    for await (const key of await this.options.bucket.keys('instance.*')) {
      this.#seenInstances.add(key)
      count++
    }
    return Math.max(1, count)
  }

  /** Takes free shards (starting at a place of its own, so instances do not all race for the same ones). */
  async #acquire(target: number): Promise<void> {
    const { shards, bucket } = this.options
    const offset = Math.floor(Math.random() * shards)
    for (let step = 0; step < shards && this.#held.size < target && !this.#closed; step++) {
      const shard = (offset + step) % shards
      if (this.#held.has(shard)) continue
      const startedAt = Date.now()
      try {
        const revision = await bucket.create(shardKey(shard), this.#value())
        // Taken while closing (a tick close() stopped waiting for): given back, never opened.
        if (this.#closed) {
          await bucket.delete(shardKey(shard), { previousSeq: revision }).catch(() => undefined)
          return
        }
        this.#held.set(shard, { revision, renewedAt: startedAt })
        this.options.onAcquired(shard)
      } catch (error) {
        if (!isWrongRevision(error)) throw error
      }
    }
  }

  async #release(shard: number): Promise<void> {
    const held = this.#held.get(shard)
    if (!held) return
    this.#held.delete(shard)
    await this.options.onReleased(shard)
    await this.options.bucket.delete(shardKey(shard), { previousSeq: held.revision }).catch(() => undefined)
  }
}

export function parseLease(text: string | undefined): FeedLease | null {
  if (text === undefined) return null
  try {
    const validation = leaseContract.validate(JSON.parse(text))
    return validation.ok ? validation.value : null
  } catch {
    return null
  }
}
