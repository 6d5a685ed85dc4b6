import { randomBytes } from 'node:crypto'

/** What a test can make the broker do with the next requests to an endpoint instead of answering them normally. */
export type Interference =
  /** A penalty ticket (`p-ticket`, `p-time` seconds); a resend with the ticket before the time is penalised again. */
  | { kind: 'penalty'; seconds: number }
  /** A penalty that needs a human (`p-captcha: true`). */
  | { kind: 'captcha' }
  /** HTTP 429 (REST) or `{s:429}` (socket). */
  | { kind: 'rate_limit' }
  /** A 5xx; with `carriedOut` the request is carried out first (socket endpoints: the order exists, its answer is lost). */
  | { kind: 'server_error'; status?: number; carriedOut?: boolean }
  /**
   * No answer now (the client times out): the request is carried out, and answered, `afterMs` later, or when
   * released (`release(endpoint)`) when no time is given. Socket endpoints only.
   */
  | { kind: 'late'; afterMs?: number }
  /**
   * The request carried out at once (its events sent) and its answer held: sent `afterMs` later, or never
   * when no time is given, the connection kept open (the client times out on a request that did land). Socket endpoints only.
   */
  | { kind: 'unanswered'; afterMs?: number }
  /** The connection is cut instead of answering; carried out first unless `carriedOut: false`. Socket endpoints only. */
  | { kind: 'drop'; carriedOut?: boolean }
  /** The command refused in the broker's words: HTTP-level 200 with `failureReason` and `failureText`. */
  | { kind: 'refusal'; failureReason?: string; failureText: string }
  /** Carried out and answered as usual: queued before another, it aims that one at a later request. */
  | { kind: 'pass' }

/** `body`: answered with status 200 and this body (a penalty ticket, a command's refusal). */
export type Answer =
  | { kind: 'penalty' | 'body'; body: Record<string, unknown> }
  | { kind: 'status'; status: number; text: string; carriedOut: boolean }
  | { kind: 'late'; afterMs: number | null }
  | { kind: 'unanswered'; afterMs: number | null }
  | { kind: 'drop'; carriedOut: boolean }

/** What is set up now, for `GET /dev/controls`. */
export interface ControlsState {
  queued: Record<string, Interference[]>
  delays: Record<string, number>
  held: Record<string, number>
  /** Requests a `late` control with `afterMs` will carry out (and answer) when their time comes. */
  scheduled: Record<string, number>
}

/**
 * Test controls shared by the REST and socket sides: interferences queued per endpoint (the next N requests),
 * penalty tickets issued and honoured, delays before an endpoint's answer, and requests held to be carried
 * out late. Endpoint names are Tradovate's without a leading slash (`auth/accesstokenrequest`, `order/placeOSO`).
 */
export class RequestControls {
  readonly #queued = new Map<string, Interference[]>()
  readonly #delays = new Map<string, number>()
  /** Requests held by a `late` interference without a time, carried out on `release`. */
  readonly #held = new Map<string, (() => void)[]>()
  /** Requests of a timed `late` interference not yet carried out, per endpoint (a test waits for none). */
  readonly #scheduled = new Map<string, number>()
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

  /** Carries out `run` after `afterMs`, or holds it until `release(endpoint)` when null. */
  hold(endpoint: string, run: () => void, afterMs: number | null): void {
    if (afterMs !== null) {
      this.#scheduled.set(endpoint, (this.#scheduled.get(endpoint) ?? 0) + 1)
      setTimeout(() => {
        const left = (this.#scheduled.get(endpoint) ?? 1) - 1
        if (left > 0) this.#scheduled.set(endpoint, left)
        else this.#scheduled.delete(endpoint)
        run()
      }, afterMs)
      return
    }
    this.#held.set(endpoint, [...(this.#held.get(endpoint) ?? []), run])
  }

  /** Carries out the requests held for an endpoint, oldest first; returns how many. */
  release(endpoint: string): number {
    const held = this.#held.get(endpoint) ?? []
    this.#held.delete(endpoint)
    for (const run of held) run()
    return held.length
  }

  /** The time of every penalty ticket issued so far has passed (a test's clock, instead of waiting it out). */
  expirePenalties(): number {
    for (const ticket of this.#tickets.keys()) this.#tickets.set(ticket, 0)
    return this.#tickets.size
  }

  /** Removes every queued interference and delay (held requests stay held until released). */
  clear(): void {
    this.#queued.clear()
    this.#delays.clear()
  }

  state(): ControlsState {
    return {
      queued: Object.fromEntries([...this.#queued].filter(([, queue]) => queue.length > 0)),
      delays: Object.fromEntries(this.#delays),
      held: Object.fromEntries([...this.#held].map(([endpoint, held]) => [endpoint, held.length])),
      scheduled: Object.fromEntries(this.#scheduled),
    }
  }

  /** The answer to give instead of the normal one, or null to carry the request out and answer it. */
  answerFor(endpoint: string, ticket: unknown): Answer | null {
    const queued = this.#queued.get(endpoint)?.shift()
    if (queued?.kind === 'pass') return null
    if (queued) return this.#answer(queued)
    if (typeof ticket === 'string' && this.#tickets.has(ticket)) {
      const notBefore = this.#tickets.get(ticket) as number
      this.#tickets.delete(ticket)
      // Resent too early: another ticket for the time that is left, as Tradovate does.
      if (Date.now() < notBefore) return this.#answer({ kind: 'penalty', seconds: Math.ceil((notBefore - Date.now()) / 1000) })
    }
    return null
  }

  #answer(interference: Exclude<Interference, { kind: 'pass' }>): Answer {
    switch (interference.kind) {
      case 'rate_limit':
        return { kind: 'status', status: 429, text: 'Too Many Requests', carriedOut: false }
      case 'server_error':
        return { kind: 'status', status: interference.status ?? 503, text: 'Service Unavailable', carriedOut: interference.carriedOut === true }
      case 'late':
        return { kind: 'late', afterMs: interference.afterMs ?? null }
      case 'unanswered':
        return { kind: 'unanswered', afterMs: interference.afterMs ?? null }
      case 'drop':
        return { kind: 'drop', carriedOut: interference.carriedOut !== false }
      case 'refusal':
        return { kind: 'body', body: { failureReason: interference.failureReason ?? 'UnknownReason', failureText: interference.failureText } }
      case 'captcha':
        return { kind: 'penalty', body: { 'p-ticket': randomBytes(12).toString('base64url'), 'p-time': 3600, 'p-captcha': true } }
      case 'penalty': {
        const ticket = randomBytes(12).toString('base64url')
        this.#tickets.set(ticket, Date.now() + interference.seconds * 1000)
        return { kind: 'penalty', body: { 'p-ticket': ticket, 'p-time': interference.seconds } }
      }
    }
  }
}
