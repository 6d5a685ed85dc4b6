import { Kvm, type KV } from '@nats-io/kv'
import type { Bus } from './bus.ts'

/** Opens (creating if needed) a key-value bucket in the bus's namespace; keeps only the latest value. */
export async function openBucket(bus: Bus, name: string): Promise<KV> {
  const kvm = new Kvm(bus.nc)
  return kvm.create(bus.stream(name), { history: 1 })
}
