import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance } from 'fastify'
import { isDependencyDown } from '@signals/bus'
import { HttpError } from '../errors.ts'

/** Postgres or NATS down: the bus's classification, shared by every service (a 503 here, a wait in a consumer). */
export { isDependencyDown }

export interface ErrorHandlerOptions {
  /**
   * The answer when a dependency (Postgres, NATS) is down. Default 503 "try again"; a service whose spec
   * names another status (settings: 500) sets it here rather than installing a handler of its own.
   */
  dependencyFailure?: { statusCode: number; message: string }
  /** The answer to any other unexpected error (default 500 "Internal error"). */
  unexpectedFailureMessage?: string
}

const DEFAULT_DEPENDENCY_FAILURE = { statusCode: 503, message: 'Service temporarily unavailable, please try again' }

/**
 * The one error handler of a service. 4xx messages reach the caller as `{success:false, error}`;
 * 5xx internals never do: they are logged, and the caller gets a generic message.
 */
export const errorHandlerPlugin = fp(
  async (app: FastifyInstance, options: ErrorHandlerOptions) => {
    const dependencyFailure = options.dependencyFailure ?? DEFAULT_DEPENDENCY_FAILURE
    const unexpectedFailureMessage = options.unexpectedFailureMessage ?? 'Internal error'
    app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
      if (error instanceof HttpError) {
        if (error.statusCode >= 500) request.log.warn({ err: error }, 'request failed: dependency unavailable')
        return reply.code(error.statusCode).send({ success: false, error: error.message, ...error.details })
      }
      const fastifyError = error as FastifyError
      // Worded by schemaErrorFormatter (validation/schema-error-formatter.ts) with its prefix.
      if (fastifyError.validation) return reply.code(400).send({ success: false, error: fastifyError.message })
      const status = fastifyError.statusCode ?? 500
      if (status < 500) {
        return reply.code(status).send({ success: false, error: fastifyError.message })
      }
      if (isDependencyDown(error)) {
        request.log.warn({ err: error }, 'request failed: dependency unavailable')
        return reply.code(dependencyFailure.statusCode).send({ success: false, error: dependencyFailure.message })
      }
      request.log.error({ err: error }, 'request failed')
      return reply.code(500).send({ success: false, error: unexpectedFailureMessage })
    })

    app.setNotFoundHandler((request, reply) => {
      return reply.code(404).send({ success: false, error: `Route ${request.method} ${request.url.split('?')[0]} not found` })
    })
  },
  { name: 'error-handler' },
)
