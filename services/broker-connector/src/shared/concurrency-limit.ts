/**
 * At most `max` tasks at once; the rest wait here, in order. Bursts of per-user work (a thousand flatten
 * fills arriving together) then queue in the process, not in the database pool, whose own wait for a
 * connection times out and would fail the work.
 */
export class ConcurrencyLimit {
  #running = 0
  readonly #waiting: (() => void)[] = []

  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.max) await new Promise<void>((resolve) => this.#waiting.push(resolve))
    else this.#running++
    return this.#release(work)
  }

  /** Runs `work` when a slot is free now; else runs nothing and resolves `undefined` (never waits). */
  async tryRun<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (this.#running >= this.max) return undefined
    this.#running++
    return this.#release(work)
  }

  async #release<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } finally {
      const next = this.#waiting.shift()
      // The slot passes straight to the next task; only when none waits is it given back.
      if (next) next()
      else this.#running--
    }
  }
}
