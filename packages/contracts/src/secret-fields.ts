/** What a redacted value becomes. */
export const REDACTED = '[redacted]'

/**
 * A field name that may hold a credential, compared case-insensitively inside longer names (`apiKey`,
 * `API_KEY`, `webhook_secret`, `Passphrase`, `authorization`), a separator allowed inside two-word names
 * (`Pass-Phrase`, `pass_word`, `Session Id`). Over-redacting a harmless field costs a trader a value in a
 * view; under-redacting costs them an account.
 */
const SECRET_NAME = /secret|token|pass[-_ .]?(?:w(?:or)?d|phrase)|pwd|key|credential|auth|signature|cookie|session[-_ .]?id/i

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/** `"name": value` in JSON text (a string value read with its escapes, so the scan never stops inside one). */
const JSON_MEMBER = /"((?:[^"\\\r\n]|\\.){1,64})"(\s*:\s*)("(?:[^"\\\r\n]|\\.){0,4096}"|[^,{}[\]"\s]+)/g
/** The same one level down, inside a JSON string (`{"message":"{\"token\":\"x\"}"}`). */
const ESCAPED_JSON_MEMBER = /\\"([^"\\\r\n]{1,64})\\"(\s*:\s*)(\\"(?:(?!\\")[^\r\n]){0,4096}?\\"|[^,{}[\]"\\\s]+)/g
/** `Name: value` and `name=value` label lines, the value up to the line's end (or an `&`). */
const LABEL_LINE = /^([ \t]*)([^\r\n:="&?]{1,64}?)([ \t]*[:=][ \t]*)([^\r\n&]*)/gm
/** `name=value` pairs of a query string or form body. */
const FORM_PAIR = /([?&])([^=&\s]{1,64})=([^&\s]*)/g

/** Text with the value of every secret-named field (JSON member, label line, form pair) redacted. */
export function redactSecretText(text: string): string {
  // Most texts name no secret at all: one scan decides, and the four patterns run only on the others.
  if (!SECRET_NAME.test(text)) return text
  return text
    .replace(JSON_MEMBER, (whole, name: string, colon: string) => (isSecretName(name) ? `"${name}"${colon}"${REDACTED}"` : whole))
    .replace(ESCAPED_JSON_MEMBER, (whole, name: string, colon: string) => (isSecretName(name) ? `\\"${name}\\"${colon}\\"${REDACTED}\\"` : whole))
    .replace(LABEL_LINE, (whole, indent: string, name: string, separator: string) => (isSecretName(name) && !name.includes('"') ? `${indent}${name}${separator}${REDACTED}` : whole))
    .replace(FORM_PAIR, (whole, lead: string, name: string) => (isSecretName(name) ? `${lead}${name}=${REDACTED}` : whole))
}

/** Whether anything in a parsed payload is named like a secret (a key, or a name inside a text). */
function holdsSecret(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return SECRET_NAME.test(value)
  if (value === null || typeof value !== 'object' || depth > 40) return false
  if (Array.isArray(value)) return value.some((item) => holdsSecret(item, depth + 1))
  for (const key in value) if (Object.hasOwn(value, key) && (isSecretName(key) || holdsSecret((value as Record<string, unknown>)[key], depth + 1))) return true
  return false
}

/**
 * A parsed payload with every secret-named field redacted, at any depth, and its texts redacted: a copy,
 * or the payload itself when nothing in it is named like a secret (the common case, on every webhook).
 */
export function redactSecretFields(value: unknown): unknown {
  return holdsSecret(value, 0) ? redactedCopy(value, 0) : value
}

function redactedCopy(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactSecretText(value)
  if (value === null || typeof value !== 'object' || depth > 40) return value
  if (Array.isArray(value)) return value.map((item) => redactedCopy(item, depth + 1))
  // fromEntries defines own properties: a `__proto__` key stays data and never touches the prototype.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSecretName(key) ? REDACTED : redactedCopy(item, depth + 1)]))
}
