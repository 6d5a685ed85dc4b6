import type { Fields } from '../parsing/fields.ts'
import { priceValue, textValue, timestampValue } from '../parsing/values.ts'
import { Refusal } from '../refusal.ts'

/**
 * Refuses an alert older than it may be: ALERT_MAX_AGE_SECONDS (`maxAgeMs`, null when unset) and the
 * sender's own limit, a 3Commas-style `max_lag` in seconds, whichever is shorter. The age is measured from
 * the alert's `time`/`timestamp`/`timenow`/`date`. Without `max_lag` an unreadable timestamp is not
 * checked (it is not guessed at); with one, the sender asked for a check that cannot be made, so it is refused.
 */
export function refuseStaleAlert(fields: Fields, receivedAt: string, maxAgeMs: number | null): void {
  const maxLagMs = maxLagOf(fields.maxLag)
  if (maxAgeMs === null && maxLagMs === null) return
  const sentAt = timestampValue(fields.time)
  if (sentAt === null) {
    if (maxLagMs === null) return
    const text = textValue(fields.time)
    if (text?.includes('{{')) {
      throw new Refusal(400, 'invalid', `Unexpanded placeholder ${text.slice(0, 40)} in the timestamp: TradingView did not fill it in, and max_lag needs the alert's time`)
    }
    throw new Refusal(400, 'invalid', 'max_lag is set but the alert has no readable timestamp (an ISO date-time or epoch seconds), so its age cannot be checked')
  }
  const limitMs = Math.min(maxAgeMs ?? Infinity, maxLagMs ?? Infinity)
  const ageMs = Date.parse(receivedAt) - sentAt
  if (ageMs > limitMs) {
    const limit = limitMs === maxLagMs ? `${limitMs / 1000} s (its max_lag)` : `${limitMs / 1000} s`
    throw new Refusal(400, 'too_old', `Alert is ${Math.round(ageMs / 1000)} s old; alerts older than ${limit} are refused`)
  }
}

function maxLagOf(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null
  const seconds = priceValue(value)
  if (seconds === null || seconds <= 0) {
    throw new Refusal(400, 'invalid', `max_lag must be a positive number of seconds (got "${(textValue(value) ?? typeof value).slice(0, 40)}")`)
  }
  return seconds * 1000
}
