import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { IDENTITY_HEADER, routeUnder, signIdentity } from '@signals/http-kit'
import type { SessionSettings } from '@signals/sessions'
import type { InternalIdentity } from '@signals/contracts'
import { resolveAccess } from '../access/resolve-access.ts'
import { isCrossOriginWrite } from '../access/same-origin.ts'
import { proxyPrefix, withoutClientControlled } from './proxy.ts'
import { ApiRefusals } from '../schemas/api.ts'

interface ApiUpstreams {
  settings: string
  admin: string
  brokerConnector: string
}

/**
 * Which service answers which part of /api (paths are passed on unchanged), and the service's name the
 * identity header is signed for (its audience).
 */
function apiRoutes(upstreams: ApiUpstreams): [prefix: string, upstream: string, audience: string][] {
  return [
    ['/api/trading-settings', upstreams.settings, 'settings'],
    ['/api/live-trading-status', upstreams.settings, 'settings'],
    ['/api/risk-engine', upstreams.settings, 'settings'],
    ['/api/broker-credentials', upstreams.settings, 'settings'],
    // The brokers' credentials forms and capabilities (the registry); not under `/api/broker/` below.
    ['/api/brokers', upstreams.settings, 'settings'],
    ['/api/notifications', upstreams.settings, 'settings'],
    // A trader's broker accounts and each one's risk configuration (issue 22).
    ['/api/accounts', upstreams.settings, 'settings'],
    // A trader's signal sources (issue 22); the operator's are under /api/admin below.
    ['/api/signal-sources', upstreams.settings, 'settings'],
    ['/api/admin', upstreams.admin, 'admin'],
    ['/api/intake', upstreams.admin, 'admin'],
    ['/api/alerts', upstreams.brokerConnector, 'broker-connector'],
    ['/api/trades', upstreams.brokerConnector, 'broker-connector'],
    ['/api/kill-switch', upstreams.brokerConnector, 'broker-connector'],
    // What the broker session says (positions, orders); `/api/broker-credentials` above stays the settings'.
    ['/api/broker', upstreams.brokerConnector, 'broker-connector'],
  ]
}

export interface ApiProxyOptions {
  upstreams: ApiUpstreams
  settings: SessionSettings
  internalAuthSecret: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's identity, set once the caller passed every check; signed per upstream call. */
    approvedIdentity: InternalIdentity | null
  }
}

const AUTHENTICATION_REQUIRED = { success: false, error: 'Authentication required' }
const PENDING = { success: false, error: 'Account pending approval' }
const CROSS_ORIGIN = { success: false, error: 'Cross-origin request refused' }

/**
 * Every /api call: same-origin check for writes, then session, status and approval (spec Authentication 4),
 * then the call goes on with the user in a freshly signed, short-lived internal header; whatever identity
 * header or cookie the client sent is dropped. Must be registered in a scope with the session plugin.
 */
export const apiProxy: FastifyPluginAsyncTypebox<ApiProxyOptions> = async (scope, options) => {
  const { settings, internalAuthSecret } = options
  scope.decorateRequest('approvedIdentity', null)

  scope.addHook('onRequest', async (request, reply) => {
    if (!routeUnder(request, '/api/')) return
    if (isCrossOriginWrite(request.method, request.headers, settings.publicOrigin)) {
      request.log.warn({ origin: request.headers.origin, site: request.headers['sec-fetch-site'] }, 'cross-origin write refused')
      return reply.code(403).send(CROSS_ORIGIN)
    }
    const access = await resolveAccess(request, reply, scope.redis, settings)
    switch (access.kind) {
      case 'anonymous':
        return reply.code(401).send(AUTHENTICATION_REQUIRED)
      case 'banned':
        return reply.code(403).send({ success: false, error: 'Account banned', reason: access.reason })
      case 'pending':
        return reply.code(403).send(PENDING)
      case 'approved':
        request.approvedIdentity = { userId: access.userId, email: access.status.email, role: access.status.role, approved: true }
    }
  })

  for (const [prefix, upstream, audience] of apiRoutes(options.upstreams)) {
    await proxyPrefix(scope, prefix, upstream, (request, headers) => {
      const { cookie: _cookie, ...rest } = withoutClientControlled(headers)
      // Signed for this service, method and path only: a captured header is good for nothing else.
      const identity = request.approvedIdentity
      const signed = identity === null ? {} : { [IDENTITY_HEADER]: signIdentity(identity, internalAuthSecret, { audience, method: request.method, path: request.url }) }
      return { ...rest, ...signed, 'x-forwarded-for': request.ip }
    })
  }

  // Anything else under /api: the caller passed the checks above, and learns only that the route is unknown.
  scope.all('/api/*', { schema: { hide: true, response: ApiRefusals } }, async (request, reply) =>
    reply.code(404).send({ success: false, error: `Route ${request.method} ${request.url.split('?')[0]} not found` }),
  )
}
