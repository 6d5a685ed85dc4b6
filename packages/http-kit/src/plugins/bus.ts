import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { connectBus, type Bus, type NatsCredentialSettings, type StreamMaxBytes } from '@signals/bus'
import { registerBusMetrics } from './bus-metrics.ts'

declare module 'fastify' {
  interface FastifyInstance {
    bus: Bus
  }
}

export interface BusPluginOptions {
  /** NATS_URL: one server or a comma-separated list of cluster nodes. */
  url: string
  /** NATS_USER / NATS_PASSWORD / NATS_TOKEN (credentials may instead be in the URL). */
  credentials?: NatsCredentialSettings
  namespace?: string
  /** BUS_REPLICAS: replicas of every stream and bucket this service declares. */
  replicas?: number
  /** Stream byte bounds this service is configured with (ingest: ALERTS and INTAKE; the connector: DEAD_LETTERS). */
  streamMaxBytes?: StreamMaxBytes
}

/** A service's NATS_USER / NATS_PASSWORD / NATS_TOKEN as the bus takes them. */
export function natsCredentials(config: { NATS_USER?: string; NATS_PASSWORD?: string; NATS_TOKEN?: string }): NatsCredentialSettings {
  return { user: config.NATS_USER, password: config.NATS_PASSWORD, token: config.NATS_TOKEN }
}

/** One NATS connection per app with the streams ensured, checked by /ready, measured on /metrics, drained on close. */
export const busPlugin = fp(
  async (app: FastifyInstance, options: BusPluginOptions) => {
    const bus = await connectBus({
      url: options.url,
      credentials: options.credentials,
      name: app.serviceName,
      namespace: options.namespace,
      replicas: options.replicas,
      streamMaxBytes: options.streamMaxBytes,
      logger: app.log,
    })
    app.decorate('bus', bus)
    registerBusMetrics(app.metrics, bus)
    app.addReadinessCheck('nats', () => bus.ping())
    app.addHook('onClose', async () => {
      await bus.close()
    })
  },
  { name: 'bus', dependencies: ['health', 'metrics'] },
)
