import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { startSignalSourceKeyRelay, type SignalSourceKeyRelay } from '../signal-sources/key-relay.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes the SIGNAL_SOURCES bucket from Postgres; running from ready to close. */
    signalSourceKeys: SignalSourceKeyRelay | null
  }
}

/** The relay of signal-source keys to ingest's bucket; stops on close before the database and the bus. */
export const signalSourceKeyRelayPlugin = fp(
  async (app: FastifyInstance, options: { intervalMs: number }) => {
    app.decorate('signalSourceKeys', null)
    app.addHook('onReady', async () => {
      app.signalSourceKeys = startSignalSourceKeyRelay(app.db, app.bus, { intervalMs: options.intervalMs, logger: app.log })
    })
    app.addHook('onClose', async () => {
      await app.signalSourceKeys?.stop()
    })
  },
  { name: 'signal-source-key-relay', dependencies: ['db', 'bus'] },
)
