import { createHash } from 'node:crypto'

/** A user's shard: the same on every instance (a hash of the user id, modulo the shard count). */
export function shardOf(userId: string, shards: number): number {
  return createHash('sha1').update(userId).digest().readUInt32BE(0) % shards
}

export const shardKey = (shard: number): string => `shard.${shard}`
export const instanceKey = (instanceId: string): string => `instance.${instanceId}`

/** The shard number of a `shard.<n>` key, or null for any other key. */
export function shardOfKey(key: string): number | null {
  const match = /^shard\.(\d+)$/.exec(key)
  return match ? Number(match[1]) : null
}
