import type { connectBus } from '@signals/bus'
import { METRICS_TOKEN } from './platform.ts'
import { residentMiB, type ServiceProcess } from './processes.ts'

export interface Sample {
  /** Seconds since the load started. */
  at: number
  /** Resident memory of each service, MiB. */
  rssMiB: Record<string, number | null>
  /** Each service's V8 heap in use after its last full collection (its `/metrics`), MiB: what it keeps. */
  liveHeapMiB: Record<string, number | null>
  /** Messages not yet delivered plus delivered but not acknowledged, over every consumer of the namespace. */
  lag: number
  /** The same for the consumer that is furthest behind. */
  worstConsumer: { name: string; lag: number } | null
}

type Bus = Awaited<ReturnType<typeof connectBus>>

/** Pending + ack-pending of every durable consumer on the namespace's streams (the consumer lag). */
export async function consumerLag(bus: Bus, namespace: string): Promise<Pick<Sample, 'lag' | 'worstConsumer'>> {
  const prefix = `${namespace.toUpperCase()}_`
  let lag = 0
  let worstConsumer: Sample['worstConsumer'] = null
  for await (const stream of bus.jsm.streams.names()) {
    if (!stream.startsWith(prefix)) continue
    for await (const consumer of bus.jsm.consumers.list(stream)) {
      const behind = consumer.num_pending + consumer.num_ack_pending
      lag += behind
      if (!worstConsumer || behind > worstConsumer.lag) worstConsumer = { name: `${stream}/${consumer.name}`, lag: behind }
    }
  }
  return { lag, worstConsumer }
}

/** `nodejs_heap_used_after_gc_bytes` from the service's `/metrics`, MiB, or null when it did not answer. */
async function liveHeapMiB(service: ServiceProcess): Promise<number | null> {
  const text = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(5_000) }).then(
    (response) => (response.ok ? response.text() : ''),
    () => '',
  )
  const bytes = /^nodejs_heap_used_after_gc_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]
  return bytes === undefined ? null : Number(bytes) / 1024 / 1024
}

export async function takeSample(bus: Bus, namespace: string, services: ServiceProcess[], startedAt: number): Promise<Sample> {
  const at = (Date.now() - startedAt) / 1000
  const rssMiB = Object.fromEntries(services.map((service) => [service.name, residentMiB(service.child.pid)]))
  const heaps = await Promise.all(services.map(async (service) => [service.name, await liveHeapMiB(service)] as const))
  return { at, rssMiB, liveHeapMiB: Object.fromEntries(heaps), ...(await consumerLag(bus, namespace)) }
}

/** Least-squares slope of `values` over `times` (per unit of time); 0 with fewer than two points. */
export function slope(times: number[], values: number[]): number {
  const n = times.length
  if (n < 2) return 0
  const meanT = times.reduce((sum, t) => sum + t, 0) / n
  const meanV = values.reduce((sum, v) => sum + v, 0) / n
  let numerator = 0
  let denominator = 0
  for (let i = 0; i < n; i++) {
    numerator += ((times[i] as number) - meanT) * ((values[i] as number) - meanV)
    denominator += ((times[i] as number) - meanT) ** 2
  }
  return denominator === 0 ? 0 : numerator / denominator
}
