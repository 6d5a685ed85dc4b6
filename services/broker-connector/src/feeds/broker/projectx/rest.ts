import { setTimeout as sleep } from 'node:timers/promises'
import { BrokerError } from '../broker-adapter.ts'
import type { RateWindow } from './rate-window.ts'

/** A ProjectX answer: HTTP 200 with `success`, `errorCode`, `errorMessage` beside the endpoint's fields. */
export type Answer = Record<string, unknown> & { success: true }

export interface RestOptions {
  baseUrl: string
  timeoutMs: number
  window: RateWindow
  /** The longest a 429's `Retry-After` (or our own window) is waited out before the call fails `rate_limited`. */
  maxWaitMs: number
}

const retryAfterMs = (response: Response): number | null => {
  const seconds = Number(response.headers.get('retry-after'))
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null
}

/**
 * `POST /api/<endpoint>` with the session token. HTTP 200 with `success: false` is a refusal
 * (`rejected`, with the broker's `errorMessage` and code); 401 is the token refused; 429 and our own rate
 * window are waited out (the request was not carried out); a 5xx, a time-out or an unreadable answer leaves
 * the outcome unknown (`unavailable`).
 */
export async function callApi(options: RestOptions, endpoint: string, body: object, token: string | null): Promise<Answer> {
  const started = Date.now()
  for (;;) {
    const waitMs = options.window.waitMs()
    if (waitMs > 0) {
      if (Date.now() + waitMs - started > options.maxWaitMs) throw new BrokerError('rate_limited', `${endpoint}: ProjectX's rate limit (200 requests a minute) is used up`, waitMs)
      await sleep(waitMs)
      continue
    }
    options.window.take()
    let response: Response
    try {
      response = await fetch(`${options.baseUrl}/api/${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError'
      throw new BrokerError('unavailable', `${endpoint}: ${timedOut ? `ProjectX did not answer within ${options.timeoutMs} ms` : 'ProjectX could not be reached'}; the outcome is unknown`)
    }
    if (response.status === 429) {
      const wait = retryAfterMs(response) ?? 1_000
      if (Date.now() + wait - started > options.maxWaitMs) throw new BrokerError('rate_limited', `${endpoint}: ProjectX answered 429 (rate limit)`, wait)
      await sleep(wait)
      continue
    }
    return classify(endpoint, response, await response.json().catch(() => null))
  }
}

function classify(endpoint: string, response: Response, body: unknown): Answer {
  if (response.status === 401) throw new BrokerError('credentials_refused', `${endpoint}: ProjectX refused the session token (HTTP 401)`)
  if (response.status >= 500) throw new BrokerError('unavailable', `${endpoint}: ProjectX failed (HTTP ${response.status}); the outcome is unknown`)
  const answer = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null
  if (response.status !== 200 || !answer) throw new BrokerError(response.status === 200 ? 'unavailable' : 'rejected', `${endpoint}: ProjectX answered HTTP ${response.status} without a readable body`)
  if (answer.success !== true) {
    const message = typeof answer.errorMessage === 'string' && answer.errorMessage !== '' ? answer.errorMessage.slice(0, 200) : 'no reason given'
    throw new BrokerError('rejected', `${endpoint}: ProjectX refused (error ${String(answer.errorCode ?? '?')}): ${message}`)
  }
  return answer as Answer
}
