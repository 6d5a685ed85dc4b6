import { Kvm, type KV } from '@nats-io/kv'
import type { Bus } from './bus.ts'
import { updateStream } from './replicas.ts'
import { untilJetStreamReady } from './jetstream-ready.ts'

interface BucketOptions {
  /** Entries older than this are removed by the server (leases that are not renewed). */
  ttlMs?: number
}

/**
 * Opens (creating if needed) a key-value bucket in the bus's namespace; keeps only the latest value. It is
 * stored on the bus's replica count; an existing bucket on another count is moved to it (or the refusal is
 * logged, as for streams: the KV client itself never updates an existing bucket).
 */
export async function openBucket(bus: Bus, name: string, options: BucketOptions = {}): Promise<KV> {
  // JetStream answering "not yet" (a cluster electing leaders) is waited out, see untilJetStreamReady.
  return untilJetStreamReady(`bucket ${bus.stream(name)} opened`, () => createBucket(bus, name, options), { logger: bus.logger, nc: bus.nc })
}

async function createBucket(bus: Bus, name: string, options: BucketOptions): Promise<KV> {
  const kvm = new Kvm(bus.nc)
  const ttl = options.ttlMs === undefined ? {} : { ttl: options.ttlMs }
  const bucket = await kvm.create(bus.stream(name), { history: 1, replicas: bus.replicas, ...ttl })
  const streamName = `KV_${bus.stream(name)}`
  const info = await bus.jsm.streams.info(streamName)
  if (info.config.num_replicas !== bus.replicas) {
    await updateStream(bus.jsm, { ...info.config, num_replicas: bus.replicas }, bus.logger)
  }
  return bucket
}
