/**
 * ProjectX's rate limit, kept on our side: at most `limit` requests per login in any `windowMs` (200 per
 * 60 s on every endpoint but History). A request waits for a free slot rather than drawing a 429.
 */
export class RateWindow {
  readonly #sent: number[] = []

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** How long until a request may go (0: now); the caller waits that long, then asks again. */
  waitMs(now = Date.now()): number {
    while (this.#sent.length > 0 && (this.#sent[0] as number) <= now - this.windowMs) this.#sent.shift()
    return this.#sent.length < this.limit ? 0 : (this.#sent[0] as number) + this.windowMs - now
  }

  take(now = Date.now()): void {
    this.#sent.push(now)
  }
}
