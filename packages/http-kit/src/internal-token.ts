import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'

/**
 * Who may read a public service's internal surfaces (`/metrics`, `/ready` detail): undefined for an
 * internal service (reached only on the private network, everyone on it may), else the holder of the
 * token configured (METRICS_TOKEN) as `Authorization: Bearer <token>`. A public service without a
 * token serves them to nobody.
 */
export interface InternalSurfaces {
  token: string | undefined
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Whether `request` may see internal detail. Constant-time over fixed-length digests. */
export function mayReadInternals(request: FastifyRequest, surfaces: InternalSurfaces | undefined): boolean {
  if (surfaces === undefined) return true
  const { token } = surfaces
  if (token === undefined || token === '') return false
  const header = request.headers.authorization
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false
  return timingSafeEqual(digest(header.slice('Bearer '.length)), digest(token))
}
