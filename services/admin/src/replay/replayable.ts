import type { IntakeLogEntry } from '@signals/db'
import { REPLAYABLE_OUTCOMES } from '../schemas/intake.ts'

/**
 * Why an intake entry may not be replayed, or null when it may. The replay adds the real webhook secret
 * and comes from the admin's address, so only a refusal that had already passed the secret check (and the
 * source allow-list) is replayed; an accepted or duplicate one would be swallowed by the duplicate window
 * or, worse, be a second order; a truncated body is not what was sent.
 */
export function whyNotReplayable(entry: IntakeLogEntry): string | null {
  const was = `Intake entry ${entry.id} was ${entry.outcome}`
  if (entry.outcome === 'unauthorized' || entry.outcome === 'forbidden' || entry.outcome === 'rate_limited') {
    return `${was}: a webhook refused for its secret, its source address or its rate is never replayed (the replay would carry the real secret)`
  }
  if (!(REPLAYABLE_OUTCOMES as readonly string[]).includes(entry.outcome)) return `${was}: only a refused live webhook is replayed`
  if (entry.kind === 'test') return `${was} (a test alert): only a refused live webhook is replayed`
  if (!entry.authenticated) return `${was} before its secret was checked: it is never replayed (the replay would carry the real secret)`
  if (entry.body_truncated) return `${was} and only the start of its body was kept: it is never replayed`
  return null
}
