import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import proxy from '@fastify/http-proxy'
import { CLIENT_ADDRESS_HEADER, IDENTITY_HEADER, REQUEST_ID_HEADER, traceHeadersOf } from '@signals/http-kit'

export type HeaderRewrite = (request: FastifyRequest, headers: IncomingHttpHeaders) => IncomingHttpHeaders

/** Upstream connections: kept alive and bounded; a slow upstream fails the call rather than holding it. */
const UNDICI = { connections: 128, pipelining: 1, keepAliveTimeout: 30_000, headersTimeout: 15_000, bodyTimeout: 15_000 }

const UNAVAILABLE = { success: false, error: 'Service temporarily unavailable, please try again' }

function upstreamFailed(reply: FastifyReply, { error }: { error: Error }) {
  reply.log.warn({ err: error, upstream: reply.request.routeOptions.url }, 'upstream unavailable')
  // A 5xx from us only ever means "try again" (TradingView retries webhooks on it).
  return reply.code(503).send(UNAVAILABLE)
}

/** Headers no client may set on its way to a service: the identity is ours to vouch for, and so are forwarding headers. */
export function withoutClientControlled(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const {
    [IDENTITY_HEADER]: _identity,
    [CLIENT_ADDRESS_HEADER]: _clientAddress,
    'x-forwarded-for': _for,
    'x-forwarded-proto': _proto,
    'x-forwarded-host': _host,
    forwarded: _forwarded,
    ...rest
  } = headers
  return rest
}

/**
 * What every forwarded request carries besides the route's own headers: this request's id, so the service
 * logs under it too, and (tracing on) its span's trace context, so the service's span joins the trace.
 */
const withCorrelation =
  (rewrite: HeaderRewrite): HeaderRewrite =>
  (request, headers) => ({ ...rewrite(request, headers), [REQUEST_ID_HEADER]: request.id, ...traceHeadersOf(request) })

/** Proxies `prefix` and everything under it, path unchanged, to `upstream`. */
export async function proxyPrefix(scope: FastifyInstance, prefix: string, upstream: string, rewriteRequestHeaders: HeaderRewrite) {
  await scope.register(proxy, {
    upstream,
    prefix,
    rewritePrefix: prefix,
    undici: UNDICI,
    replyOptions: { rewriteRequestHeaders: withCorrelation(rewriteRequestHeaders) as never, onError: upstreamFailed as never },
  })
}
