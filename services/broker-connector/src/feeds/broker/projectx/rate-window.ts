/**
 * ProjectX's rate limit, kept on our side: at most `limit` requests per login in any `windowMs` (200 per
 * 60 s on every endpoint but History). A request waits for a free slot rather than drawing a 429. The
 * broker counts a request when it arrives, later than we sent it, so a slot is freed a little after the
 * window (a tenth of it, at most 1 s).
 */
export class RateWindow {
  readonly #sent: number[] = []
  readonly #spanMs: number

  constructor(
    private readonly limit: number,
    windowMs: number,
  ) {
    this.#spanMs = windowMs + Math.min(windowMs / 10, 1_000)
  }

  /** How long until a request may go (0: now); the caller waits that long, then asks again. */
  waitMs(now = Date.now()): number {
    while (this.#sent.length > 0 && (this.#sent[0] as number) <= now - this.#spanMs) this.#sent.shift()
    return this.#sent.length < this.limit ? 0 : (this.#sent[0] as number) + this.#spanMs - now
  }

  take(now = Date.now()): void {
    this.#sent.push(now)
  }
}
