import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { connectBus, type Bus } from '@signals/bus'

declare module 'fastify' {
  interface FastifyInstance {
    bus: Bus
  }
}

export interface BusPluginOptions {
  /** NATS_URL: one server or a comma-separated list of cluster nodes. */
  url: string
  namespace?: string
  /** BUS_REPLICAS: replicas of every stream and bucket this service declares. */
  replicas?: number
}

/** One NATS connection per app with the streams ensured, checked by /ready, drained on close. */
export const busPlugin = fp(
  async (app: FastifyInstance, options: BusPluginOptions) => {
    const bus = await connectBus({
      url: options.url,
      name: app.serviceName,
      namespace: options.namespace,
      replicas: options.replicas,
      logger: app.log,
    })
    app.decorate('bus', bus)
    app.addReadinessCheck('nats', () => bus.ping())
    app.addHook('onClose', async () => {
      await bus.close()
    })
  },
  { name: 'bus', dependencies: ['health'] },
)
