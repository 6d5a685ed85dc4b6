import { randomBytes } from 'node:crypto'

/** What a test can make the broker answer instead of doing the request. */
export type Interference =
  /** A penalty ticket (`p-ticket`, `p-time` seconds); a resend with the ticket before the time is penalised again. */
  | { kind: 'penalty'; seconds: number }
  /** A penalty that needs a human (`p-captcha: true`). */
  | { kind: 'captcha' }
  /** HTTP 429 (REST) or `{s:429}` (socket). */
  | { kind: 'rate_limit' }
  /** A 5xx. */
  | { kind: 'server_error'; status?: number }
  /** The command refused in the broker's words: HTTP-level 200 with `failureReason` and `failureText`. */
  | { kind: 'refusal'; failureReason?: string; failureText: string }

/** `body`: answered with status 200 and this body (a penalty ticket, a command's refusal). */
export type Answer = { kind: 'penalty' | 'body'; body: Record<string, unknown> } | { kind: 'status'; status: number; text: string }

/**
 * Test controls shared by the REST and socket sides: interferences queued per endpoint (the next N requests),
 * penalty tickets issued and honoured, and delays before an endpoint's answer. Endpoint names are Tradovate's
 * without a leading slash (`auth/accesstokenrequest`, `order/placeOSO`).
 */
export class RequestControls {
  readonly #queued = new Map<string, Interference[]>()
  readonly #delays = new Map<string, number>()
  /** Ticket -> earliest time its resend is accepted. */
  readonly #tickets = new Map<string, number>()

  interfere(endpoint: string, interference: Interference, count = 1): void {
    const queue = this.#queued.get(endpoint) ?? []
    for (let i = 0; i < count; i++) queue.push(interference)
    this.#queued.set(endpoint, queue)
  }

  /** Delays every answer of an endpoint by `ms` (0 removes the delay). The request is still carried out at once. */
  delay(endpoint: string, ms: number): void {
    if (ms > 0) this.#delays.set(endpoint, ms)
    else this.#delays.delete(endpoint)
  }

  delayOf(endpoint: string): number {
    return this.#delays.get(endpoint) ?? 0
  }

  /** The answer to give instead of carrying out the request, or null to carry it out. */
  answerFor(endpoint: string, ticket: unknown): Answer | null {
    const queued = this.#queued.get(endpoint)?.shift()
    if (queued) return this.#answer(queued)
    if (typeof ticket === 'string' && this.#tickets.has(ticket)) {
      const notBefore = this.#tickets.get(ticket) as number
      this.#tickets.delete(ticket)
      // Resent too early: another ticket for the time that is left, as Tradovate does.
      if (Date.now() < notBefore) return this.#answer({ kind: 'penalty', seconds: Math.ceil((notBefore - Date.now()) / 1000) })
    }
    return null
  }

  #answer(interference: Interference): Answer {
    if (interference.kind === 'rate_limit') return { kind: 'status', status: 429, text: 'Too Many Requests' }
    if (interference.kind === 'server_error') return { kind: 'status', status: interference.status ?? 503, text: 'Service Unavailable' }
    if (interference.kind === 'refusal') return { kind: 'body', body: { failureReason: interference.failureReason ?? 'UnknownReason', failureText: interference.failureText } }
    const ticket = randomBytes(12).toString('base64url')
    if (interference.kind === 'captcha') return { kind: 'penalty', body: { 'p-ticket': ticket, 'p-time': 3600, 'p-captcha': true } }
    this.#tickets.set(ticket, Date.now() + interference.seconds * 1000)
    return { kind: 'penalty', body: { 'p-ticket': ticket, 'p-time': interference.seconds } }
  }
}
