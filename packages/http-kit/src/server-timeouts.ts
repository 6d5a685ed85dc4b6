import type { FastifyServerOptions } from 'fastify'

/** Time-outs of a public server, in milliseconds (HTTP_REQUEST_TIMEOUT_MS and its siblings). */
export interface ServerTimeouts {
  /** The whole request, body included; then 408 and the connection closed. */
  requestMs: number
  /** The request's headers alone (Node requires at most `requestMs`). */
  headersMs: number
  /** An idle keep-alive connection. */
  keepAliveMs: number
}

/**
 * Fastify's options for them. Node checks pending requests against both time-outs only every
 * `connectionsCheckingInterval` (30 s by default), so a slow request would outlive its time-out by up to
 * that: the check runs at a quarter of the shorter time-out, at most every second.
 */
export function serverTimeoutOptions(timeouts: ServerTimeouts): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout'> & { http: object } {
  const headersMs = Math.min(timeouts.headersMs, timeouts.requestMs)
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: { headersTimeout: headersMs, connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersMs / 4))) },
  }
}

/** The time-outs named by a service's configuration. */
export function serverTimeouts(config: { HTTP_REQUEST_TIMEOUT_MS: number; HTTP_HEADERS_TIMEOUT_MS: number; HTTP_KEEP_ALIVE_TIMEOUT_MS: number }): ServerTimeouts {
  return { requestMs: config.HTTP_REQUEST_TIMEOUT_MS, headersMs: config.HTTP_HEADERS_TIMEOUT_MS, keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS }
}
