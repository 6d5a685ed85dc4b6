import { createHash, timingSafeEqual } from 'node:crypto'
import { isSecretName, REDACTED, redactSecretFields, redactSecretText } from '@signals/contracts'
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/** Compares against WEBHOOK_SECRET in constant time (digests first, so the length leaks nothing either). */
export function secretMatcher(secret: string): (candidate: string) => boolean {
  const expected = digest(secret)
  return (candidate) => timingSafeEqual(digest(candidate), expected)
}

/**
 * Removes secrets from what ingest keeps (the alert's `raw`, the intake log's text), whatever the
 * configuration (issue 22): every field named like a secret (`secret`, `token`, `apiKey`, `password`,
 * `passphrase`..., see isSecretName) loses its value at any depth, in parsed payloads and in text (JSON
 * members, label lines, form pairs); and any text containing the configured secret or a sent candidate
 * (of a secret's minimum length) has it replaced, in plain, JSON-escaped and URL-encoded spelling.
 */
export class SecretRedactor {
  readonly #needles: string[]

  constructor(candidates: readonly string[]) {
    const needles = new Set<string>()
    for (const candidate of candidates) {
      if (candidate.length < 8) continue
      needles.add(candidate)
      needles.add(JSON.stringify(candidate).slice(1, -1))
      needles.add(encodeURIComponent(candidate))
    }
    this.#needles = [...needles].sort((a, b) => b.length - a.length)
  }

  text(value: string): string {
    let result = redactSecretText(value)
    for (const needle of this.#needles) if (result.includes(needle)) result = result.replaceAll(needle, REDACTED)
    return result
  }

  /** A copy of a parsed payload with secret fields and secret text redacted (depth is bounded by parsing). */
  value(value: unknown, depth = 0): unknown {
    // Without a secret to look for, the names decide (and a payload naming none is not copied).
    if (this.#needles.length === 0) return redactSecretFields(value)
    if (typeof value === 'string') return this.text(value)
    if (value === null || typeof value !== 'object' || depth > 40) return value
    if (Array.isArray(value)) return value.map((item) => this.value(item, depth + 1))
    // fromEntries defines own properties: a `__proto__` key stays data and never touches the prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSecretName(key) ? REDACTED : this.value(item, depth + 1)]))
  }
}
