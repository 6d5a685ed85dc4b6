import { Kvm, type KV } from '@nats-io/kv'
import type { Bus } from './bus.ts'

interface BucketOptions {
  /** Entries older than this are removed by the server (leases that are not renewed). */
  ttlMs?: number
}

/** Opens (creating if needed) a key-value bucket in the bus's namespace; keeps only the latest value. */
export async function openBucket(bus: Bus, name: string, options: BucketOptions = {}): Promise<KV> {
  const kvm = new Kvm(bus.nc)
  return kvm.create(bus.stream(name), { history: 1, ...(options.ttlMs === undefined ? {} : { ttl: options.ttlMs }) })
}
