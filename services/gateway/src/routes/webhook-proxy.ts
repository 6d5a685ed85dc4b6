import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { CLIENT_ADDRESS_HEADER, signClientAddress } from '@signals/http-kit'
import { proxyPrefix, withoutClientControlled } from './proxy.ts'

/**
 * `/webhook/*` to ingest: no session, and the body streams through untouched whatever its content type
 * (ingest parses every format itself and enforces its own size limit). No cookie leaves the gateway.
 * The client address goes in a header signed with the internal secret: ingest's rate limit and source
 * allow-list count the sender, not the gateway, and believe that address from the gateway alone.
 */
export const webhookProxy: FastifyPluginAsyncTypebox<{ ingestUrl: string; internalAuthSecret: string }> = async (scope, options) => {
  await proxyPrefix(scope, '/webhook', options.ingestUrl, (request, headers) => {
    const { cookie: _cookie, ...rest } = withoutClientControlled(headers)
    return { ...rest, 'x-forwarded-for': request.ip, [CLIENT_ADDRESS_HEADER]: signClientAddress(request.ip, options.internalAuthSecret) }
  })
}
