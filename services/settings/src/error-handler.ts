import type { FastifyError, FastifyInstance } from 'fastify'
import { HttpError } from '@signals/http-kit'

/** What the caller reads when storage (or anything else unexpected) fails: no host, table or SQL in it. */
export const STORAGE_FAILURE_MESSAGE = 'Settings could not be read or saved right now, please try again'

/**
 * The spec answers "database or processing error on settings routes" with 500 `{success:false, error}`.
 * Installed in the routes' own context; it differs from the shared handler only there: a dependency
 * failure is a 500 with a message that names no internals (the shared one says 503).
 */
export function installSettingsErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.warn({ err: error }, 'request failed')
      return reply.code(error.statusCode).send({ success: false, error: error.message, ...error.details })
    }
    const fastifyError = error as FastifyError
    if (fastifyError.validation) {
      return reply.code(400).send({ success: false, error: `Invalid ${fastifyError.validationContext ?? 'request'}: ${fastifyError.message}` })
    }
    const status = fastifyError.statusCode ?? 500
    if (status < 500) return reply.code(status).send({ success: false, error: fastifyError.message })
    request.log.error({ err: error }, 'settings request failed')
    return reply.code(500).send({ success: false, error: STORAGE_FAILURE_MESSAGE })
  })
}
