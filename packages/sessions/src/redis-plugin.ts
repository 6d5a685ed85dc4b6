import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
// node-redis's client alone: the package's index also loads its cluster and sentinel clients, which
// nothing here makes (1.6 MiB of V8 heap at rest in each service that holds sessions; docs/decisions/memory.md).
// A CommonJS module: its class is the module's `default` export.
import redisClientModule from '@redis/client/dist/lib/client/index.js'

const createClient = redisClientModule.default.create

export type RedisClient = ReturnType<typeof createRedisClient>

/**
 * A node-redis client that fails fast while disconnected (no offline queue, so a request answers 503 at
 * once instead of hanging) and reconnects in the background with a capped delay.
 */
export function createRedisClient(url: string) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000) },
  })
}

declare module 'fastify' {
  interface FastifyInstance {
    redis: RedisClient
  }
}

/** One Redis connection per app, checked by /ready, closed on close. Connection errors are logged, not thrown. */
export const redisPlugin = fp(
  async (app: FastifyInstance, options: { url: string }) => {
    const client = createRedisClient(options.url)
    let lastError = ''
    client.on('error', (error: Error) => {
      // Reconnection repeats the same error many times a second: log each kind once per outage.
      if (error.message === lastError) return
      lastError = error.message
      app.log.warn({ err: error }, 'redis connection error')
    })
    client.on('ready', () => {
      lastError = ''
    })
    await client.connect()
    app.decorate('redis', client)
    app.addReadinessCheck('redis', async () => (await client.ping()) === 'PONG')
    app.addHook('onClose', async () => {
      if (client.isOpen) await client.close()
    })
  },
  { name: 'redis', dependencies: ['health'] },
)
