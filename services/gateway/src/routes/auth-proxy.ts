import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import rateLimit from '@fastify/rate-limit'
import { Redis } from 'ioredis'
import { HttpError } from '@signals/http-kit'
import { proxyPrefix, withoutClientControlled } from './proxy.ts'

export interface AuthProxyOptions {
  authUrl: string
  publicUrl: string
  redisUrl: string
  /** Requests per minute per client address. */
  limit: number
  /** Rate-limit key prefix (tests give each app its own). */
  rateLimitNamespace: string
}

/**
 * `/auth/*` to the auth service, rate limited per client address in Redis (shared by every gateway
 * instance). Cookies pass through (auth owns the session); auth learns the browser's protocol and address
 * from forwarding headers we set ourselves.
 */
export const authProxy: FastifyPluginAsyncTypebox<AuthProxyOptions> = async (scope, options) => {
  const limiterRedis = new Redis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 })
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
  await scope.register(rateLimit, {
    max: options.limit,
    timeWindow: 60_000,
    redis: limiterRedis,
    nameSpace: options.rateLimitNamespace,
    // Sign-in must not depend on the limiter: when Redis cannot count, the request goes through.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, `Too many sign-in requests, please try again in ${Math.ceil(context.ttl / 1000)} s`),
  })
  const publicUrl = new URL(options.publicUrl)
  await proxyPrefix(scope, '/auth', options.authUrl, (request, headers) => ({
    ...withoutClientControlled(headers),
    'x-forwarded-for': request.ip,
    'x-forwarded-proto': publicUrl.protocol.slice(0, -1),
    'x-forwarded-host': publicUrl.host,
  }))
}
