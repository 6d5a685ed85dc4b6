import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Buckets, FeedCommandV1, Streams, contract } from '@signals/contracts'
import { openBucket, type ConsumerHandle } from '@signals/bus'
import { CredentialsCipher } from '@signals/secrets'
import { FeedManager, type FeedManagerOptions } from './feed-manager.ts'
import type { BrokerAdapter, BrokerEndpoints } from '../broker/broker-adapter.ts'

declare module 'fastify' {
  interface FastifyInstance {
    feeds: FeedManager
  }
}

export interface FeedsPluginOptions {
  credentialsKeyId: string
  credentialsKey: string
  credentialsPreviousKeys: string
  endpoints: Record<'paper' | 'tradovate', Record<'demo' | 'live', BrokerEndpoints>>
  reconnectMs?: number
  /** The broker implementation (default Tradovate's API). */
  adapter?: BrokerAdapter
  /** Session hooks (entry flow: reconcile orders by tag on open, follow fills). */
  hooks?: Pick<FeedManagerOptions, 'onEvent' | 'onSessionOpen'>
}

const FEEDS_DURABLE = 'broker-connector-feeds'
const commandContract = contract(FeedCommandV1)

/**
 * Per-user broker feeds: consumes feed commands (`feeds.start|stop|restart`, in order, one at a time) and,
 * once ready, re-opens a feed for every user whose live trading is on.
 */
export const feedsPlugin = fp(
  async (app: FastifyInstance, options: FeedsPluginOptions) => {
    const cipher = CredentialsCipher.fromConfig(options.credentialsKeyId, options.credentialsKey, options.credentialsPreviousKeys)
    const status = await openBucket(app.bus, Buckets.feedStatus)
    const manager = new FeedManager({
      db: app.db,
      cipher,
      status,
      endpoints: (broker, environment) => options.endpoints[broker][environment],
      logger: app.log,
      reconnectMs: options.reconnectMs,
      adapter: options.adapter,
      ...options.hooks,
    })
    app.decorate('feeds', manager)
    let handle: ConsumerHandle | undefined

    app.addHook('onReady', async () => {
      handle = await app.bus.consume({
        stream: Streams.feeds.name,
        durable: FEEDS_DURABLE,
        subject: 'feeds.*',
        contract: commandContract,
        concurrency: 1,
        handler: async (command) => {
          app.log.info({ userId: command.userId, action: command.action, reason: command.reason }, 'feed command')
          if (command.action === 'stop') await manager.stop(command.userId)
          else if (command.action === 'restart') await manager.restart(command.userId)
          else await manager.start(command.userId)
        },
      })
      // Not awaited: the service is ready while sessions open; each reports its own state.
      void manager
        .resumeAll()
        .then((count) => app.log.info({ users: count }, 'broker feeds resumed for live users'))
        .catch((error: unknown) => app.log.warn({ err: error }, 'broker feeds not resumed (database unavailable?)'))
    })
    app.addHook('preClose', async () => {
      await handle?.stop()
      await manager.closeAll()
    })
  },
  { name: 'broker-feeds', dependencies: ['db', 'bus'] },
)
