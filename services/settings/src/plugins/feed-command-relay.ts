import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { startFeedCommandRelay, type FeedCommandRelay } from '../feed/feed-command-publisher.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Publishes feed commands the request path left queued; running from ready to close. */
    feedCommandRelay: FeedCommandRelay | null
  }
}

export interface FeedCommandRelayOptions {
  intervalMs: number
  timeoutMs: number
}

/**
 * The outbox relay of feed commands. It starts once the app is ready and stops on close before the
 * database and the bus do (close hooks run in the reverse order of registration), so a pass in flight
 * finishes with both still open.
 */
export const feedCommandRelayPlugin = fp(
  async (app: FastifyInstance, options: FeedCommandRelayOptions) => {
    app.decorate('feedCommandRelay', null)
    app.addHook('onReady', async () => {
      app.feedCommandRelay = startFeedCommandRelay(app.db, app.bus, { ...options, logger: app.log })
    })
    app.addHook('onClose', async () => {
      await app.feedCommandRelay?.stop()
    })
  },
  { name: 'feed-command-relay', dependencies: ['db', 'bus'] },
)
