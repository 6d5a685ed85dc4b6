import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { InternalIdentity } from '@signals/contracts'
import { IDENTITY_HEADER, verifyIdentity } from '../internal-identity.ts'
import { routeUnder } from '../matched-route.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, as the gateway vouched for it; set on every /api request that reached a handler. */
    identity: InternalIdentity
  }
}

export interface InternalIdentityOptions {
  secret: string
  /** This service's name as the gateway signs it (`settings`, `admin`, `broker-connector`, …). */
  audience: string
  /** URL prefixes that require the header (default `/api/`). */
  prefixes?: readonly string[]
}

/**
 * Refuses any call under the protected prefixes that lacks a valid, unexpired identity header signed by
 * the gateway for this service, method and path, so a service reached directly (not through the gateway),
 * or with a header captured from another call, answers 401; an identity that is not approved gets 403.
 */
export const internalIdentityPlugin = fp(
  async (app: FastifyInstance, options: InternalIdentityOptions) => {
    const prefixes = options.prefixes ?? ['/api/']
    app.decorateRequest('identity', null as unknown as InternalIdentity)
    app.addHook('onRequest', async (request, reply) => {
      if (!prefixes.some((prefix) => routeUnder(request, prefix))) return
      const binding = { audience: options.audience, method: request.method, path: request.url }
      const identity = verifyIdentity(request.headers[IDENTITY_HEADER], options.secret, binding)
      if (!identity) {
        return reply.code(401).send({ success: false, error: 'Authentication required' })
      }
      // The gateway refuses unapproved users first; a service reached with an unapproved identity refuses
      // too, since every /api route is for approved users only (spec, Authentication 4).
      if (!identity.approved) {
        return reply.code(403).send({ success: false, error: 'Account pending approval' })
      }
      request.identity = identity
    })
  },
  { name: 'internal-identity' },
)
