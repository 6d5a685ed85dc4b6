import type { FastifyInstance } from 'fastify'
import { proxyPrefix, withoutClientControlled } from './proxy.ts'

/**
 * `/webhook/*` to ingest: no session, and the body streams through untouched whatever its content type
 * (ingest parses every format itself and enforces its own size limit). No cookie leaves the gateway.
 */
export async function webhookProxy(scope: FastifyInstance, options: { ingestUrl: string }) {
  await proxyPrefix(scope, '/webhook', options.ingestUrl, (request, headers) => {
    const { cookie: _cookie, ...rest } = withoutClientControlled(headers)
    return { ...rest, 'x-forwarded-for': request.ip }
  })
}
