import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { Redis } from 'ioredis'
import { HttpError } from '@signals/http-kit'
import { proxyPrefix, withoutClientControlled } from './proxy.ts'
import { isBrowserNavigation, rateLimitedPage } from './rate-limited-page.ts'

export interface AuthProxyOptions {
  authUrl: string
  publicUrl: string
  redisUrl: string
  /** Sign-in requests (every /auth path but /auth/me) per minute per client address. */
  limit: number
  /** `/auth/me` requests per minute per client address (pages read who is signed in; not a sign-in). */
  meLimit: number
  /** Rate-limit key prefix (tests give each app its own). */
  rateLimitNamespace: string
  /** The built stylesheet's file name, for the rate-limited page. */
  stylesheet: string
}

/** A 429 that knows how long the client must wait, so a browser's page can say it. */
class TooManyRequests extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message)
  }
}

const isWhoAmI = (request: FastifyRequest) => request.url.split('?', 1)[0] === '/auth/me'

/** An ioredis client for the limiter that fails fast (no offline queue), ready before the first request. */
async function limiterConnection(scope: FastifyInstance, redisUrl: string): Promise<Redis> {
  const limiterRedis = new Redis(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 })
  limiterRedis.on('error', () => undefined)
  // Count from the first request: without an offline queue, commands sent before the connection is up fail
  // (and the limiter lets them through). Do not hold start-up for long if Redis is slow to answer.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5_000)
    limiterRedis.once('ready', () => {
      clearTimeout(timer)
      resolve()
    })
  })
  scope.addHook('onClose', async () => {
    limiterRedis.disconnect()
  })
  return limiterRedis
}

/**
 * `/auth/*` to the auth service, rate limited per client address in Redis (shared by every gateway
 * instance): sign-in requests on one budget, `/auth/me` (the pages asking who is signed in: the pending
 * page every 3 s, the home page twice per load) on its own, larger one, so reading pages never uses up
 * sign-in. Cookies pass through (auth owns the session); auth learns the browser's protocol and address
 * from forwarding headers we set ourselves.
 */
export const authProxy: FastifyPluginAsyncTypebox<AuthProxyOptions> = async (scope, options) => {
  await scope.register(rateLimit, {
    global: false,
    timeWindow: 60_000,
    redis: await limiterConnection(scope, options.redisUrl),
    nameSpace: options.rateLimitNamespace,
    // Sign-in must not depend on the limiter: when Redis cannot count, the request goes through.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000))
      return new TooManyRequests(`Too many sign-in requests, please try again in ${seconds} s`, seconds)
    },
  })
  const signInLimit = scope.rateLimit({ max: options.limit })
  const whoAmILimit = scope.rateLimit({ max: options.meLimit, keyGenerator: (request) => `me:${request.ip}` })
  scope.addHook('onRequest', (request, reply) => (isWhoAmI(request) ? whoAmILimit : signInLimit).call(scope, request, reply))

  // A browser sent here by a link or a redirect gets a page, not a JSON body; fetch() callers keep JSON.
  scope.setErrorHandler((error, request, reply) => {
    if (!(error instanceof TooManyRequests)) throw error
    if (!isBrowserNavigation(request)) return reply.code(429).send({ success: false, error: error.message })
    return reply.code(429).type('text/html; charset=utf-8').send(rateLimitedPage(error.retryAfterSeconds, options.stylesheet))
  })

  const publicUrl = new URL(options.publicUrl)
  await proxyPrefix(scope, '/auth', options.authUrl, (request, headers) => ({
    ...withoutClientControlled(headers),
    'x-forwarded-for': request.ip,
    'x-forwarded-proto': publicUrl.protocol.slice(0, -1),
    'x-forwarded-host': publicUrl.host,
  }))
}
