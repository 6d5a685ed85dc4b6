import Fastify, { type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { lazyChildLoggerFactory } from './lazy-child-logger.ts'
import { loggerOptions, prettyLogs, type LogRedaction } from './logger.ts'
import { errorHandlerPlugin, type ErrorHandlerOptions } from './plugins/error-handler.ts'
import { healthPlugin } from './plugins/health.ts'
import { metricsPlugin } from './plugins/metrics.ts'
import type { InternalSurfaces } from './internal-token.ts'
import { schemaErrorFormatter } from './validation/schema-error-formatter.ts'
import { serverTimeoutOptions, type ServerTimeouts } from './server-timeouts.ts'
import { limitConnectionsPerAddress } from './connection-limit.ts'
import { createValidatorCompiler } from './validation/validator-compiler.ts'
import { serializerAtFirstUse } from './validation/serializer-compiler.ts'
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.ts'
import { tracingPlugin } from './plugins/tracing.ts'

declare module 'fastify' {
  interface FastifyInstance {
    serviceName: string
  }
}

export interface ServiceAppOptions {
  service: string
  logLevel: string
  bodyLimit?: number
  trustProxy?: FastifyServerOptions['trustProxy']
  /** Replace the logger (tests capture log lines through a stream here). */
  loggerStream?: NodeJS.WritableStream
  /**
   * For a service the public can reach (gateway, ingest): `/metrics` and `/ready` detail only for the
   * holder of this token. Unset: an internal service, whose network is private.
   */
  internalSurfaces?: InternalSurfaces
  /** The service's own secrets for the log redaction (config names, headers, secret path segments). */
  logRedaction?: LogRedaction
  /** How 5xx answers read (see ErrorHandlerOptions). */
  errors?: ErrorHandlerOptions
  /** Time-outs of a public server (HTTP_*_TIMEOUT_MS); unset: Fastify's defaults (no request time-out). */
  timeouts?: ServerTimeouts
  /** Open connections one client address may hold (HTTP_MAX_CONNECTIONS_PER_ADDRESS); unset or 0: no limit. */
  maxConnectionsPerAddress?: number
}

/**
 * How long one plugin's registration or one onReady hook may take (Fastify's `pluginTimeout`; its default is
 * 10 s). Services start their consumers, leases and listeners at onReady, each a round trip to NATS or
 * Postgres: on a loaded machine or while a NATS cluster elects a leader, that took over 10 s, and the start
 * failed with FST_ERR_HOOK_TIMEOUT where waiting would have worked. A dependency that is down still fails its
 * own connect, with its own error.
 */
const START_STEP_TIMEOUT_MS = 60_000

/**
 * A Fastify app with what every service shares: TypeBox type provider, redacting logger, one error
 * handler, `/health`, `/ready` and `/metrics`, the request id that follows a request across the
 * services (request-id.ts) and, while tracing is on, a span per request (plugins/tracing.ts). Each service's `buildApp(config)` starts from this.
 */
export async function createServiceApp(options: ServiceAppOptions) {
  const pretty = !options.loggerStream && prettyLogs()
  const logger = loggerOptions({ service: options.service, level: options.logLevel, redaction: options.logRedaction, pretty })
  const app = Fastify({
    logger: options.loggerStream ? { ...logger, stream: options.loggerStream } : logger,
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
    pluginTimeout: START_STEP_TIMEOUT_MS,
    forceCloseConnections: 'idle',
    schemaErrorFormatter,
    genReqId: requestIdOf,
    schemaController: { compilersFactory: { buildSerializer: serializerAtFirstUse() } },
    ...(options.timeouts ? serverTimeoutOptions(options.timeouts) : {}),
  }).withTypeProvider<TypeBoxTypeProvider>()

  limitConnectionsPerAddress(app.server, options.maxConnectionsPerAddress ?? 0)
  app.setValidatorCompiler(createValidatorCompiler())
  app.decorate('serviceName', options.service)
  // The caller (a client, the gateway's log, a support question) can name the request it means.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
  await app.register(tracingPlugin, { service: options.service })
  await app.register(errorHandlerPlugin, options.errors ?? {})
  await app.register(healthPlugin, { service: options.service, internalSurfaces: options.internalSurfaces })
  await app.register(metricsPlugin, { service: options.service, internalSurfaces: options.internalSurfaces })
  return app
}

export type ServiceApp = Awaited<ReturnType<typeof createServiceApp>>
