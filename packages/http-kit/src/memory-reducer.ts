// V8's memory reducer gives memory back once a process has gone quiet: a full collection that shrinks the
// heap, returns pooled pages and drops bytecode no longer run (docs/decisions/memory.md). It starts when
// the allocation rate is low, judged on three terms: the JavaScript heap's young and old generations and
// the embedder's heap (cppgc). On Node 24 (V8 13.6) a process that has never allocated on the embedder's
// heap reads that rate as exactly 0, which V8's check counts as the highest rate, so the reducer never
// sees the process quiet and runs only from its watchdog, 100 s after the last full collection (any full
// collection starts the 100 s again). Measured: every service at rest collected at 112-115 s, ingest never.
// A compiled `vm.Script` is one of the few objects Node keeps on the embedder's heap: compiling an empty
// one now and every 30 s keeps that term small but above 0 (it decays toward 0 between samples), and the
// reducer runs 10-40 s after a burst ends, as it did on Node 22. Nothing runs under load that did not
// before: the reducer still waits for a low rate.
import { Script } from 'node:vm'

const EMBEDDER_ALLOCATION_EVERY_MS = 30_000

/** Starts the embedder allocations that let V8's memory reducer see an idle process; returns their stop. */
export function letMemoryReducerSeeIdle(): () => void {
  const allocateOnEmbedderHeap = () => new Script('')
  allocateOnEmbedderHeap()
  const timer = setInterval(allocateOnEmbedderHeap, EMBEDDER_ALLOCATION_EVERY_MS)
  timer.unref()
  return () => clearInterval(timer)
}
