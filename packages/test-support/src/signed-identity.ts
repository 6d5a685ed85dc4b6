import type { FastifyInstance, InjectOptions } from 'fastify'
import type { InternalIdentity } from '@signals/contracts'
import { IDENTITY_HEADER, signIdentity } from '@signals/http-kit'

/** Stand-ins, for tests, of the gateway's per-request identity signing. */

const UNSIGNED = 'unsigned:'

/** An identity header to be signed, for the very request it goes with, by `signIdentitiesOnInject`. */
export function unsignedIdentity(identity: InternalIdentity): string {
  return `${UNSIGNED}${JSON.stringify(identity)}`
}

/**
 * Wraps `app.inject` so that a request carrying `unsignedIdentity(...)` goes out with that identity signed
 * for this service, its method and its path, as the gateway would sign it.
 */
export function signIdentitiesOnInject(app: FastifyInstance, secret: string, audience: string): void {
  const inject = app.inject.bind(app)
  const signed = (options: InjectOptions): InjectOptions => {
    const header = options.headers?.[IDENTITY_HEADER]
    if (typeof header !== 'string' || !header.startsWith(UNSIGNED)) return options
    const identity = JSON.parse(header.slice(UNSIGNED.length)) as InternalIdentity
    const url = typeof options.url === 'string' ? options.url : (options.path as string | undefined) ?? '/'
    const binding = { audience, method: (options.method ?? 'GET').toUpperCase(), path: url }
    return { ...options, headers: { ...options.headers, [IDENTITY_HEADER]: signIdentity(identity, secret, binding) } }
  }
  app.inject = ((options: InjectOptions | string) => inject(typeof options === 'string' ? options : signed(options))) as typeof app.inject
}
