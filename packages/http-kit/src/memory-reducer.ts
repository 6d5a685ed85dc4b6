// V8's memory reducer gives memory back once a process has gone quiet: a full collection that shrinks the
// heap, returns pooled pages and drops bytecode no longer run (docs/decisions/memory.md). It starts when
// the allocation rate is low, judged on three terms: the JavaScript heap's young and old generations and
// the embedder's heap (cppgc). On Node 24 (V8 13.6) a process that has never allocated on the embedder's
// heap reads that rate as exactly 0, which V8's check counts as the highest rate, so the reducer never
// sees the process quiet and runs only from its watchdog, 100 s after the last full collection (any full
// collection starts the 100 s again). Measured: services at rest collected at 112-115 s, ingest never.
// A compiled `vm.Script` is one of the few objects Node keeps on the embedder's heap: compiling an empty
// one makes that rate small but above 0 for a while, and the reducer collects what start-up left.
// Once, at start-up, not periodically: with one every 30 s the reducer also ran in every quiet spell under
// bursty load, and a burst then starts on a shrunk heap (the ingest bench's ratio fell in 3 of 4 runs).
import { Script } from 'node:vm'

/** One allocation on the embedder's heap, so V8's memory reducer can see the idle after start-up. */
export function letMemoryReducerSeeIdle(): void {
  new Script('').runInThisContext()
}
