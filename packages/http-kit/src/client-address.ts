import { createHmac, timingSafeEqual } from 'node:crypto'
import { isIP } from 'node:net'

/**
 * Header the gateway sets (after removing any a client sent) to tell ingest which address a webhook came
 * from. Signed with INTERNAL_AUTH_SECRET, so ingest believes it from the gateway and from nobody else,
 * wherever the gateway runs on the network (an address allow-list would have to know that).
 */
export const CLIENT_ADDRESS_HEADER = 'x-signals-client-address'

const DEFAULT_TTL_SECONDS = 30

/** Domain-separated from the identity header's MAC, so one can never be passed off as the other. */
function mac(payload: string, secret: string): string {
  return createHmac('sha256', secret).update('client-address.').update(payload).digest('base64url')
}

/** `address.exp.hmac` */
export function signClientAddress(address: string, secret: string, ttlSeconds = DEFAULT_TTL_SECONDS): string {
  const payload = `${address}.${Math.floor(Date.now() / 1000) + ttlSeconds}`
  return `${payload}.${mac(payload, secret)}`
}

/** The address in a header signed with `secret` and not expired, or null. Constant-time MAC check. */
export function verifyClientAddress(header: string | string[] | undefined, secret: string): string | null {
  if (typeof header !== 'string' || header.length > 200) return null
  const macAt = header.lastIndexOf('.')
  const expAt = header.lastIndexOf('.', macAt - 1)
  if (expAt <= 0) return null
  const payload = header.slice(0, macAt)
  const given = Buffer.from(header.slice(macAt + 1))
  const expected = Buffer.from(mac(payload, secret))
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const exp = Number(header.slice(expAt + 1, macAt))
  if (!Number.isInteger(exp) || exp < Math.floor(Date.now() / 1000)) return null
  const address = header.slice(0, expAt)
  return isIP(address) === 0 ? null : address
}
