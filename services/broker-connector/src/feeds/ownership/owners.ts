import type { KV } from '@nats-io/kv'
import { parseLease } from './shard-leases.ts'
import { shardKey, shardOf } from './shard.ts'

/** Who holds users' feeds, read from the FEED_OWNERS bucket (fresh on every call: leases move). */
export class FeedOwners {
  constructor(
    private readonly bucket: KV,
    readonly shards: number,
  ) {}

  shardOf(userId: string): number {
    return shardOf(userId, this.shards)
  }

  /** The instance holding the user's shard, or null while none does (expired leases are gone from the bucket). */
  async ownerOf(userId: string): Promise<string | null> {
    const entry = await this.bucket.get(shardKey(this.shardOf(userId)))
    if (!entry || entry.operation !== 'PUT') return null
    return parseLease(entry.string())?.instanceId ?? null
  }

  /** The owners of several users at once (one read per shard). */
  async ownersOf(userIds: readonly string[]): Promise<Map<string, string | null>> {
    const byShard = new Map<number, Promise<string | null>>()
    const owners = new Map<string, string | null>()
    for (const userId of new Set(userIds)) {
      const shard = this.shardOf(userId)
      if (!byShard.has(shard)) byShard.set(shard, this.ownerOf(userId))
    }
    for (const userId of new Set(userIds)) owners.set(userId, await (byShard.get(this.shardOf(userId)) as Promise<string | null>))
    return owners
  }
}
