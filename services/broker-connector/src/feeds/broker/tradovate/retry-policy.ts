import type { Penalty } from '@signals/tradovate-wire'
import { BrokerError } from '../broker-adapter.ts'
import { setTimeout as sleep } from 'node:timers/promises'

/** How the adapter honours penalty tickets, 429s and 5xx answers. */
export interface RetryPolicy {
  /** A wait up to this long is waited out and the request sent once more; a longer one is thrown to the caller. */
  maxAutoWaitMs: number
  /** Wait after a 429 that names no time (Tradovate's WebSocket 429 carries none). */
  rateLimitWaitMs: number
  /** Wait after a 5xx at login. */
  serverErrorWaitMs: number
  /** Wait after `p-captcha` (a human must solve it; Tradovate suggests about an hour). */
  captchaWaitMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAutoWaitMs: 5_000,
  rateLimitWaitMs: 60_000,
  serverErrorWaitMs: 2_000,
  captchaWaitMs: 60 * 60_000,
}

/**
 * The last penalty ticket of a request that gave up waiting, so the next attempt (after the caller's wait)
 * presents it, as Tradovate asks, instead of arriving as a new offender.
 */
export interface PenaltyMemo {
  ticket: string | null
}

/** One attempt's outcome: a value, a penalty ticket, a wait (429, 5xx), or a final error. */
export type Attempt<T> = { ok: T } | { penalty: Penalty } | { wait: { ms: number; why: string } } | { error: BrokerError }

/** Added to a penalty's wait: a resend even a millisecond early earns a new ticket (timers may fire early). */
const PENALTY_MARGIN_MS = 100
const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`

/**
 * Sends a request, honouring the broker's waits: a penalty ticket is waited out (`p-time`) and the identical
 * request resent with the ticket; a 429 or 5xx is waited out and resent. Only one resend, and only when the
 * wait is at most `maxAutoWaitMs`; otherwise a `rate_limited` BrokerError carries the wait to the caller.
 * `p-captcha` is a `captcha` BrokerError at once.
 */
export async function sendHonouringWaits<T>(policy: RetryPolicy, what: string, send: (ticket: string | null) => Promise<Attempt<T>>, memo?: PenaltyMemo): Promise<T> {
  let ticket: string | null = memo?.ticket ?? null
  for (let attempt = 0; ; attempt++) {
    const outcome = await send(ticket)
    if (memo) memo.ticket = 'penalty' in outcome ? outcome.penalty.ticket : null
    if ('ok' in outcome) return outcome.ok
    if ('error' in outcome) throw outcome.error
    let waitMs: number
    let why: string
    if ('penalty' in outcome) {
      if (outcome.penalty.captcha) throw new BrokerError('captcha', `${what}: the broker asks for a captcha; trying again in about an hour`, policy.captchaWaitMs)
      waitMs = outcome.penalty.timeSeconds * 1000
      why = 'a penalty ticket'
      ticket = outcome.penalty.ticket
    } else {
      waitMs = outcome.wait.ms
      why = outcome.wait.why
      ticket = null
    }
    if (attempt > 0 || waitMs > policy.maxAutoWaitMs) throw new BrokerError('rate_limited', `${what}: the broker asked us to wait ${seconds(waitMs)} (${why})`, waitMs)
    await sleep(ticket ? waitMs + PENALTY_MARGIN_MS : waitMs)
  }
}
