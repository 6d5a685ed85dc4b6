/** A request budget: at most `limit` requests per `windowMs`. ProjectX: 200 / 60 s; History/retrieveBars 50 / 30 s. */
export interface RateLimit {
  limit: number
  windowMs: number
}

/**
 * ProjectX's rate limits over a sliding window, per login: past the budget a request is answered 429 and
 * not carried out (it does not count either).
 */
export class RateLimiter {
  readonly #seen = new Map<string, number[]>()

  constructor(
    private readonly rule: RateLimit,
    private readonly now: () => number,
  ) {}

  /** True when the request may go ahead (and is counted); false: answer 429. */
  take(key: string): boolean {
    const now = this.now()
    const recent = (this.#seen.get(key) ?? []).filter((at) => at > now - this.rule.windowMs)
    if (recent.length >= this.rule.limit) {
      this.#seen.set(key, recent)
      return false
    }
    recent.push(now)
    this.#seen.set(key, recent)
    return true
  }

  /** Whole seconds until the oldest counted request leaves the window (the `Retry-After` of a 429). */
  retryAfter(key: string): number {
    const oldest = this.#seen.get(key)?.[0]
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.rule.windowMs - this.now()) / 1000))
  }
}
