import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Buckets, type FeedCommand } from '@signals/contracts'
import { openBucket, type ConsumerHandle } from '@signals/bus'
import { CredentialsCipher } from '@signals/secrets'
import { FeedManager } from './feed-manager.ts'
import { DurableConsumers } from '../shared/durables/table.ts'
import { startDurable, type DurableSettings } from '../shared/durables/start-durable.ts'
import type { BrokerEndpointsTable } from './broker/broker-adapter.ts'
import type { BrokerAdapterOverrides } from './broker/adapters.ts'
import { ShardLeases } from './ownership/shard-leases.ts'
import { forwardCommand, serveCommands } from './ownership/command-handoff.ts'

declare module 'fastify' {
  interface FastifyInstance {
    feeds: FeedManager
    feedLeases: ShardLeases
  }
}

export interface FeedsPluginOptions {
  credentialsKeyId: string
  credentialsKey: string
  credentialsPreviousKeys: string
  endpoints: BrokerEndpointsTable
  reconnectMs?: number
  /** Adapters replacing the registry's for some brokers (tests). */
  adapters?: BrokerAdapterOverrides
  /** PROJECTX_RESTING_OWN_LEGS (projectx/session.ts, OWN_LEGS_MARKET_ONLY). */
  restingOwnLegs?: boolean
  statusRefreshMs: number
  /** How long a broker request (login, socket) waits for its answer. */
  brokerTimeoutMs?: number
  /** How long a forwarded command waits for the owner's answer. */
  forwardTimeoutMs: number
  /** The durable consumers' settings (the feed-command consumer takes them, one at a time). */
  consumers: DurableSettings
}

/**
 * Per-user broker feeds, shared between instances by shard leases (docs/decisions/feed-ownership.md):
 * taking a shard opens its live users' feeds, losing or releasing one closes them. Feed commands
 * (`feeds.start|stop|restart`, in order, one at a time) are run here when this instance holds the user,
 * else handed to the holder. What listens to the sessions adds its hooks to `app.feeds` (trading/feed-wiring.ts);
 * the feeds know nothing of it.
 */
export const feedsPlugin = fp(
  async (app: FastifyInstance, options: FeedsPluginOptions) => {
    const cipher = CredentialsCipher.fromConfig(options.credentialsKeyId, options.credentialsKey, options.credentialsPreviousKeys)
    const status = await openBucket(app.bus, Buckets.feedStatus)
    const { owners, instanceId, ttlMs, bucket } = app.feedOwners
    // Read only once the plugin has started (the leases are built just below, after the manager they drive).
    const owns = (userId: string) => leases.holds(owners.shardOf(userId))
    const manager = new FeedManager({
      db: app.db,
      cipher,
      status,
      endpoints: options.endpoints,
      logger: app.log,
      reconnectMs: options.reconnectMs,
      connectTimeoutMs: options.brokerTimeoutMs,
      adapters: options.adapters,
      restingOwnLegs: options.restingOwnLegs,
      owns,
      instanceId,
    })
    const leases = new ShardLeases({
      bucket,
      instanceId,
      shards: owners.shards,
      ttlMs,
      tickMs: Math.max(200, Math.floor(ttlMs / 5)),
      logger: app.log,
      onAcquired(shard) {
        void manager
          .resumeAll((userId) => owners.shardOf(userId) === shard)
          .then((count) => app.log.info({ shard, users: count }, 'feed shard taken; its live users resumed'))
          .catch((error: unknown) => app.log.warn({ shard, err: error }, 'feed shard users not resumed (database unavailable?)'))
      },
      async onReleased(shard) {
        const count = manager.dropWhere((userId) => owners.shardOf(userId) === shard)
        app.log.info({ shard, users: count }, 'feed shard given up; its feeds closed')
      },
    })
    app.decorate('feeds', manager)
    app.decorate('feedLeases', leases)
    const run = async (command: FeedCommand): Promise<boolean> => {
      if (!owns(command.userId)) return false
      if (command.action === 'stop') await manager.stop(command.userId)
      else if (command.action === 'restart') await manager.restart(command.userId)
      else await manager.start(command.userId)
      return true
    }
    let handle: ConsumerHandle | undefined
    let refresh: NodeJS.Timeout | undefined
    const commandHandoff = serveCommands(app.bus, instanceId, run, app.log)

    app.addHook('onReady', async () => {
      await leases.start()
      handle = await startDurable(app.bus, DurableConsumers.feedCommands, async (command, context) => {
        app.log.info({ userId: command.userId, action: command.action, reason: command.reason, deliveryCount: context.deliveryCount }, 'feed command')
        if (await run(command)) return
        // Held elsewhere: handed to the holder. Held by nobody: the next holder resumes from the database.
        const owner = await owners.ownerOf(command.userId)
        if (owner !== null && owner !== instanceId) await forwardCommand(app.bus, owner, command, options.forwardTimeoutMs)
      }, options.consumers)
      refresh = setInterval(() => void manager.refreshStatuses().catch((error: unknown) => app.log.warn({ err: error }, 'feed statuses not refreshed')), options.statusRefreshMs)
    })
    // onClose hooks run in reverse registration order: this one before the db and bus plugins close
    // (test/consumers/close-order.test.ts), so in-flight handlers finish on a live pool.
    app.addHook('onClose', async () => {
      clearInterval(refresh)
      await handle?.stop()
      // Releasing closes each shard's feeds, then deletes its lease: another instance takes it at once.
      await leases.close()
      await manager.closeAll()
      commandHandoff.unsubscribe()
    })
  },
  { name: 'broker-feeds', dependencies: ['db', 'bus', 'feed-ownership'] },
)
