/**
 * Penalty tickets (partner.tradovate.com/overview/core-concepts/penalty-tickets; example-api-js
 * tutorial/Access/EX-3-Time-Penalty): a request answered 200 with `p-ticket`, `p-time` (seconds) and
 * `p-captcha` was not executed. Wait `p-time`, then send the identical request with `p-ticket` added.
 * `p-captcha: true` means a human must solve a captcha: a server cannot proceed (wait about an hour).
 */
export interface PenaltyFields {
  'p-ticket': string
  'p-time'?: number
  'p-captcha'?: boolean
}

export interface Penalty {
  ticket: string
  /** Seconds to wait before the resend. */
  timeSeconds: number
  captcha: boolean
}

/** The penalty in a REST body or a socket response's `d`, or null when it is not one. */
export function penaltyOf(data: unknown): Penalty | null {
  if (typeof data !== 'object' || data === null) return null
  const record = data as Record<string, unknown>
  const ticket = record['p-ticket']
  const captcha = record['p-captcha'] === true
  if (typeof ticket !== 'string' && !captcha) return null
  const time = record['p-time']
  return { ticket: typeof ticket === 'string' ? ticket : '', timeSeconds: typeof time === 'number' && time >= 0 ? time : 0, captcha }
}

/** The same body with the ticket added (the resend after a penalty). */
export function withTicket<T extends object>(body: T, ticket: string): T & { 'p-ticket': string } {
  return { ...body, 'p-ticket': ticket }
}
