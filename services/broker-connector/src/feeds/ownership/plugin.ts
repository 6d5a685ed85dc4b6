import { randomUUID } from 'node:crypto'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Buckets } from '@signals/contracts'
import { openBucket } from '@signals/bus'
import { FeedOwners } from './owners.ts'

declare module 'fastify' {
  interface FastifyInstance {
    feedOwners: { owners: FeedOwners; instanceId: string; ttlMs: number; bucket: Awaited<ReturnType<typeof openBucket>> }
  }
}

export interface FeedOwnershipOptions {
  ttlMs: number
  shards: number
}

/**
 * The FEED_OWNERS bucket (shard leases, instance presence) and this instance's id. Every instance opens
 * it: one with feeds holds leases (feeds plugin), any instance reads owners to forward entries.
 */
export const feedOwnershipPlugin = fp(
  async (app: FastifyInstance, options: FeedOwnershipOptions) => {
    const bucket = await openBucket(app.bus, Buckets.feedOwners, { ttlMs: options.ttlMs })
    app.decorate('feedOwners', { owners: new FeedOwners(bucket, options.shards), instanceId: randomUUID(), ttlMs: options.ttlMs, bucket })
  },
  { name: 'feed-ownership', dependencies: ['bus'] },
)
