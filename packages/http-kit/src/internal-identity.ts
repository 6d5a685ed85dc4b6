import { createHmac, timingSafeEqual } from 'node:crypto'
import { InternalIdentity, contract } from '@signals/contracts'

/** Header the gateway sets (after removing any a client sent) to tell services who the caller is. */
export const IDENTITY_HEADER = 'x-signals-identity'

const identityContract = contract(InternalIdentity)

/** Default lifetime: long enough for one proxied request, short enough that a captured header is useless. */
const DEFAULT_TTL_SECONDS = 30

function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url')
}

/** `base64url(JSON{...identity, exp}).hmac` */
export function signIdentity(identity: InternalIdentity, secret: string, ttlSeconds = DEFAULT_TTL_SECONDS): string {
  const payload = Buffer.from(
    JSON.stringify({ ...identity, exp: Math.floor(Date.now() / 1000) + ttlSeconds }),
  ).toString('base64url')
  return `${payload}.${mac(payload, secret)}`
}

/** The identity in a header signed with `secret` and not expired, or null. Constant-time MAC check. */
export function verifyIdentity(header: string | string[] | undefined, secret: string): InternalIdentity | null {
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
  const { exp, ...identity } = parsed as { exp?: unknown }
  if (typeof exp !== 'number' || exp < Math.floor(Date.now() / 1000)) return null
  return identityContract.check(identity) ? identity : null
}
