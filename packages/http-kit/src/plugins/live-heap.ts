import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks'
import { getHeapStatistics } from 'node:v8'
import { Gauge, type Registry } from 'prom-client'

/**
 * `nodejs_heap_used_after_gc_bytes`: the V8 heap in use right after the last full (mark-sweep)
 * collection, i.e. what is still reachable. Resident memory and `nodejs_heap_size_used_bytes` also count
 * garbage not yet collected and the heap V8 keeps for the next burst, so under load they climb and fall
 * with the collector; this one grows only when something is kept (docs/decisions/memory.md).
 * Returns what stops the observer.
 */
export function registerLiveHeapGauge(registry: Registry): () => void {
  const gauge = new Gauge({ name: 'nodejs_heap_used_after_gc_bytes', help: 'V8 heap in use right after the last full garbage collection', registers: [registry] })
  gauge.set(getHeapStatistics().used_heap_size)
  const observer = new PerformanceObserver((list) => {
    const major = list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
    if (major) gauge.set(getHeapStatistics().used_heap_size)
  })
  observer.observe({ entryTypes: ['gc'] })
  return () => observer.disconnect()
}
