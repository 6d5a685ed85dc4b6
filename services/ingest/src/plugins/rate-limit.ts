import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { AddressRateLimit } from '../http/address-rate-limit.ts'
import { tradingViewBudget } from '../http/source-allow-list.ts'
import { Refusal } from '../refusal.ts'

export interface RateLimitPluginOptions {
  /** INGEST_RATE_LIMIT_PER_MINUTE; 0 switches the limit off. */
  perMinute: number
}

/**
 * Alerts per client address per minute (TradingView's addresses get their own budget). Its hook runs after
 * the body is read, so a refused alert still reaches the intake log whole.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance, options: RateLimitPluginOptions) => {
    const limit = options.perMinute
    if (limit <= 0) return
    const rateLimit = new AddressRateLimit(limit, 60_000, Date.now, undefined, tradingViewBudget(limit))
    app.addHook('preHandler', (request, reply, done) => {
      const retryAfterSeconds = rateLimit.take(request.clientAddress)
      if (retryAfterSeconds === null) return done()
      reply.header('retry-after', retryAfterSeconds)
      done(new Refusal(429, 'rate_limited', `Too many alerts from this address (at most ${rateLimit.limitOf(request.clientAddress)} a minute); retry in ${retryAfterSeconds} s`))
    })
    app.addHook('onClose', async () => rateLimit.clear())
  },
  { name: 'ingest-rate-limit', dependencies: ['ingest-client-address', 'ingest-intake-log'] },
)
