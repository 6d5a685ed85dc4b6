interface Window {
  count: number
  resetsAt: number
}

/** Most addresses tracked at once by default; past it the oldest windows are evicted. */
const MAX_TRACKED_ADDRESSES = 100_000

/**
 * Requests per client address per window, counted in memory (ingest keeps no Redis, so each instance
 * counts on its own). Each address's window starts at its first request. Replaces @fastify/rate-limit
 * here: its general machinery (async key, store and hook steps, three headers on every answer) cost ingest
 * about 7 % of its throughput for what is one map lookup (docs/benchmarks/ingest.md).
 *
 * The map keeps windows in the order they started (a renewed window moves to the end), so a full table
 * evicts the oldest: a flood of new addresses cannot wipe the counts of the address that is flooding.
 */
export class AddressRateLimit {
  readonly #windows = new Map<string, Window>()
  #nextSweepAt: number

  constructor(
    readonly maxPerWindow: number,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly maxTracked = MAX_TRACKED_ADDRESSES,
    /** An address's own budget when it has one (TradingView's), else undefined for `maxPerWindow`. */
    private readonly budgetFor: (address: string) => number | undefined = () => undefined,
  ) {
    this.#nextSweepAt = now() + windowMs
  }

  /** Counts one request from `address`: null while within its limit, else the seconds until its window ends. */
  take(address: string): number | null {
    const now = this.now()
    if (now >= this.#nextSweepAt) this.#sweep(now)
    let window = this.#windows.get(address)
    if (window === undefined || window.resetsAt <= now) {
      if (window !== undefined) this.#windows.delete(address)
      else this.#makeRoom()
      window = { count: 0, resetsAt: now + this.windowMs }
      this.#windows.set(address, window)
    }
    window.count += 1
    return window.count > this.limitOf(address) ? Math.max(1, Math.ceil((window.resetsAt - now) / 1000)) : null
  }

  /** The most requests `address` may send per window. */
  limitOf(address: string): number {
    return this.budgetFor(address) ?? this.maxPerWindow
  }

  /** Addresses being counted (for tests and metrics). */
  /** Forgets every window (the service is closing). */
  clear(): void {
    this.#windows.clear()
  }

  get trackedAddresses(): number {
    return this.#windows.size
  }

  #makeRoom(): void {
    while (this.#windows.size >= this.maxTracked) {
      const oldest = this.#windows.keys().next()
      if (oldest.done === true) return
      this.#windows.delete(oldest.value)
    }
  }

  /** Forgets windows that have ended, once per window length, so quiet addresses do not accumulate. */
  #sweep(now: number): void {
    for (const [address, window] of this.#windows) if (window.resetsAt <= now) this.#windows.delete(address)
    this.#nextSweepAt = now + this.windowMs
  }
}
