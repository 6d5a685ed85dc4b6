/**
 * A same-site path to send the browser to after sign-in, or null. Only plain absolute paths pass: no scheme,
 * no `//host` or `/\host` (browsers treat both as another origin), no control characters, no `..` tricks.
 * The scheme-relative check runs again on the normalised path: `/.//evil.example` and `/%2e//x` only become
 * `//evil.example` after `new URL()` resolves the dot segments.
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512) return null
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\')) return null
  let url: URL
  try {
    url = new URL(value, 'http://signals.invalid')
  } catch {
    return null
  }
  if (url.origin !== 'http://signals.invalid') return null
  // Never bounce back into the sign-in flow itself.
  if (url.pathname.startsWith('/auth/')) return null
  if (url.pathname.startsWith('//')) return null
  return url.pathname + url.search + url.hash
}
