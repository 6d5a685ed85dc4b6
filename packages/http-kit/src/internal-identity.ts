import { createHmac, timingSafeEqual } from 'node:crypto'
import { InternalIdentity, contract } from '@signals/contracts'

/** Header the gateway sets (after removing any a client sent) to tell services who the caller is. */
export const IDENTITY_HEADER = 'x-signals-identity'

const identityContract = contract(InternalIdentity)

/** Default lifetime: long enough for one proxied request, short enough that a captured header is useless. */
const DEFAULT_TTL_SECONDS = 30

/**
 * What one signed header is good for: the service it was sent to, and the request's method and path
 * (decoded, without the query, as the router matches it). A header captured on its way to one call works
 * for no other call, on no other service.
 */
export interface IdentityBinding {
  audience: string
  method: string
  path: string
}

/** The path a binding names for a request URL: decoded as the router decodes it, query dropped. */
export function identityPath(url: string): string {
  const path = url.split('?', 1)[0] ?? ''
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url')
}

/** `base64url(JSON{...identity, aud, method, path, exp}).hmac` */
export function signIdentity(identity: InternalIdentity, secret: string, binding: IdentityBinding, ttlSeconds = DEFAULT_TTL_SECONDS): string {
  const payload = Buffer.from(
    JSON.stringify({
      ...identity,
      aud: binding.audience,
      method: binding.method,
      path: identityPath(binding.path),
      exp: Math.floor(Date.now() / 1000) + ttlSeconds,
    }),
  ).toString('base64url')
  return `${payload}.${mac(payload, secret)}`
}

/**
 * The identity in a header signed with `secret`, not expired and issued for exactly this service, method
 * and path; else null. Constant-time MAC check.
 */
export function verifyIdentity(header: string | string[] | undefined, secret: string, binding: IdentityBinding): InternalIdentity | null {
  if (typeof header !== 'string') return null
  const dot = header.indexOf('.')
  if (dot <= 0 || header.length > 4096) return null
  const payload = header.slice(0, dot)
  const given = Buffer.from(header.slice(dot + 1))
  const expected = Buffer.from(mac(payload, secret))
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  const { exp, aud, method, path, ...identity } = parsed as { exp?: unknown; aud?: unknown; method?: unknown; path?: unknown }
  if (typeof exp !== 'number' || exp < Math.floor(Date.now() / 1000)) return null
  if (aud !== binding.audience || method !== binding.method || path !== identityPath(binding.path)) return null
  return identityContract.check(identity) ? identity : null
}
