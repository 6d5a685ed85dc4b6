import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import rateLimit from '@fastify/rate-limit'
import { HttpError } from '@signals/http-kit'
import type { RedisClient } from '@signals/sessions'
import { proxyPrefix, withoutClientControlled } from './proxy.ts'
import { isBrowserNavigation, rateLimitedPage } from './rate-limited-page.ts'

export interface AuthProxyOptions {
  authUrl: string
  publicUrl: string
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

type Reply = (error: Error | null, result?: unknown) => void

/**
 * The limiter counts in the app's Redis connection (`app.redis`, node-redis: no offline queue, so while Redis
 * is away a count fails at once and `skipOnError` lets the request through). @fastify/rate-limit's Redis store
 * is written for an ioredis client: it defines its two Lua scripts as commands (`defineCommand`) and calls
 * them with a callback. This is that shape over node-redis's EVAL, so the gateway loads one Redis client
 * library instead of two (ioredis held about 1.5 MiB of V8 heap at rest; docs/decisions/memory.md).
 */
function limiterRedis(client: Pick<RedisClient, 'eval'>) {
  const commands: Record<string, (key: string, ...rest: unknown[]) => void> = {}
  return Object.assign(commands, {
    defineCommand(name: string, { lua }: { numberOfKeys: number; lua: string }) {
      commands[name] = (key, ...rest) => {
        const reply = rest.pop() as Reply
        client.eval(lua, { keys: [key], arguments: rest.map(String) }).then(
          (result) => reply(null, result),
          (error: unknown) => reply(error instanceof Error ? error : new Error(String(error))),
        )
      }
    },
  })
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
    redis: limiterRedis(scope.redis) as never,
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
