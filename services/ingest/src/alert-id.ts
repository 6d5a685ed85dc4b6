import { hash } from 'node:crypto'
import { textValue, isPlaceholder } from './parsing/values.ts'

/** An explicit id is used when it is printable, without blanks, and at most 64 characters. */
const EXPLICIT_ID = /^[\x21-\x7e]{1,64}$/

/**
 * The alert's id, which is also its bus message id (a resend within the stream's duplicate window is
 * dropped by the server). Both forms are 40 hex digits of a hash that includes the user the alert names
 * (null for an alert naming none, a scope of its own), so one sender's id never collides with another's:
 * - the sender's own id (`id`, `alertId`, `alert_id`) when it carries a usable one: one alert per id and
 *   user_id, whatever the text (issue 22: trader B's `"id":"Long"` is not a duplicate of trader A's);
 * - otherwise the alert text (BOM, surrounding blanks and CRLF normalized): an identical resend maps to
 *   the same id and a different user's identical text does not.
 * An alert sent to a signal source's URL (`sourceId`) is scoped by that source too: its ids never meet the
 * spec route's or another source's. The spec route's ids are unchanged (no `sourceId`, the same inputs).
 */
export function alertIdOf(explicitId: unknown, sourceText: string, userId: string | null, sourceId?: string): string {
  const explicit = textValue(explicitId)
  if (explicit !== null && EXPLICIT_ID.test(explicit) && !isPlaceholder(explicit)) {
    // JSON keeps the parts apart whatever they hold, and tells a null user from any text.
    const parts = sourceId === undefined ? [userId, explicit] : [userId, explicit, sourceId]
    return hash('sha256', `alert-id-v1\n${JSON.stringify(parts)}`, 'hex').slice(0, 40)
  }
  const normalizedText = (sourceText.includes('\r') || sourceText.charCodeAt(0) === 0xfeff ? sourceText.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : sourceText).trim()
  const scope = sourceId === undefined ? (userId ?? '') : `${userId ?? ''}\n${sourceId}`
  return hash('sha256', `alert-v1\n${scope}\n${normalizedText}`, 'hex').slice(0, 40)
}
