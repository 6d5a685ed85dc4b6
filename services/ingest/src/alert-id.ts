import { hash } from 'node:crypto'
import { textValue, isPlaceholder } from './parsing/values.ts'

/** An explicit id is used as is when it is printable, without blanks, and fits the contract's 64 characters. */
const EXPLICIT_ID = /^[\x21-\x7e]{1,64}$/

/**
 * The alert's id, which is also its bus message id (a resend within the stream's duplicate window is
 * dropped by the server). The sender's own id (`id`, `alertId`, `alert_id`) when it carries a usable one;
 * otherwise a hash of the alert text (BOM, surrounding blanks and CRLF normalized) and the user it names,
 * so an identical resend maps to the same id and a different user's identical text does not.
 */
export function alertIdOf(explicitId: unknown, sourceText: string, userId: string | null): string {
  const explicit = textValue(explicitId)
  if (explicit !== null && EXPLICIT_ID.test(explicit) && !isPlaceholder(explicit)) return explicit
  const normalizedText = (sourceText.includes('\r') || sourceText.charCodeAt(0) === 0xfeff ? sourceText.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n') : sourceText).trim()
  return hash('sha256', `alert-v1\n${userId ?? ''}\n${normalizedText}`, 'hex').slice(0, 40)
}
