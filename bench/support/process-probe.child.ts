// Preloaded (`--import`) into a service's own process by a benchmark that forks it: answers `measure` over
// IPC with the process's memory (after a full garbage collection when asked and run with --expose-gc) and
// its CPU time, and `snapshot` by writing a heap snapshot. Adds nothing else to the service.
import { writeHeapSnapshot } from 'node:v8'
import type { ProbeReading, ToProbe } from './process-probe.ts'

process.on('message', (message: ToProbe) => {
  if (message.type === 'measure') {
    // Twice: the first collection's finalizers can free more for the second. Never for a CPU reading
    // (the collection's own CPU time would count).
    const collect = message.collect ? globalThis.gc : undefined
    collect?.()
    collect?.()
    const reading: ProbeReading = { type: 'reading', memory: process.memoryUsage(), cpu: process.cpuUsage(), wallMs: performance.now(), collected: collect !== undefined }
    process.send?.(reading)
  } else {
    globalThis.gc?.()
    process.send?.({ type: 'snapshot', file: writeHeapSnapshot(message.file) })
  }
})
