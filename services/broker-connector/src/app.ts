import type { FastifyInstance } from 'fastify'
import { createServiceApp, busPlugin, natsCredentials, internalIdentityPlugin, openapiPlugin } from '@signals/http-kit'
import { dbPlugin, type Database, type Kysely } from '@signals/db'
import type { Config } from './config.ts'
import type { EntryFlow } from './trading/entry/entry-flow.ts'
import { tradingPlugin } from './trading/plugin.ts'
import { alertConsumersPlugin } from './intake/plugin.ts'
import { alertRoutes } from './pages/routes/alerts.ts'
import { discrepancyRoutes } from './pages/routes/discrepancies.ts'
import { tradeRoutes } from './pages/routes/trades.ts'
import { tradeCloseRoutes } from './pages/routes/trade-close.ts'
import { killSwitchRoutes } from './pages/routes/kill-switch.ts'
import { brokerViewPlugin } from './pages/broker-view/plugin.ts'
import { credentialsTestPlugin } from './feeds/credentials-test.ts'
import { BrokerAdapters, type BrokerAdapterOverrides } from './feeds/broker/adapters.ts'
import { feedsPlugin } from './feeds/plugin.ts'
import { feedMetrics } from './feeds/feed-metrics.ts'
import { activityRelayPlugin } from './pages/activity/activity-relay.ts'
import { feedOwnershipPlugin } from './feeds/ownership/plugin.ts'
import type { FeedSessionHooks } from './feeds/feed-manager.ts'
import type { BrokerEndpointsTable } from './feeds/broker/broker-adapter.ts'

/** A session silent this long (two of Tradovate's 2.5 s heartbeats) is shown, but said stale; the socket itself gives up at 10 s. */
const BROKER_SILENT_STALE_MS = 5_000

export interface BuildOptions {
  loggerStream?: NodeJS.WritableStream
  /** Start the bus consumers when the app is ready (default true; API-only tests turn it off). */
  consumers?: boolean
  /** Hold per-user broker feeds (default: FEEDS_ENABLED). */
  feeds?: boolean
  /** Replaces the live entry flow (tests of intake alone). */
  entryFlow?: (db: Kysely<Database>) => EntryFlow
  /** Adapters replacing the broker registry's for some brokers (tests pass one with short waits). */
  brokerAdapters?: BrokerAdapterOverrides
  /** Extra feed session hooks (`onEvent`, `onSessionOpen`), called after the trading ones (tests observe with them). */
  feedHooks?: Pick<FeedSessionHooks, 'onEvent' | 'onSessionOpen'>
  /** The clock the session rules judge by (trading windows, news blackouts, the daily flatten); tests set it. */
  clock?: () => Date
}

/** Builds the broker-connector service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = await createServiceApp({ service: 'broker-connector', logLevel: config.LOG_LEVEL, loggerStream: options.loggerStream, logRedaction: { paths: ['config.CREDENTIALS_KEY', 'config.INTERNAL_AUTH_SECRET'] } })
  await app.register(dbPlugin, { connectionString: config.DATABASE_URL })
  await app.register(busPlugin, { url: config.NATS_URL, credentials: natsCredentials(config), namespace: config.BUS_NAMESPACE, replicas: config.BUS_REPLICAS, streamMaxBytes: { deadLetters: config.DEAD_LETTERS_STREAM_MAX_BYTES } })
  await app.register(internalIdentityPlugin, { secret: config.INTERNAL_AUTH_SECRET, audience: 'broker-connector' })
  await app.register(activityRelayPlugin, { connectionString: config.DATABASE_URL })
  await app.register(feedOwnershipPlugin, { ttlMs: config.FEED_LEASE_TTL_MS, shards: config.FEED_SHARDS })
  await app.register(openapiPlugin, {
    title: 'Broker connector',
    description: "The signed-in user's alert records and trades (reached through the gateway)",
  })
  await app.register(alertRoutes)
  await app.register(tradeRoutes)
  await app.register(discrepancyRoutes)
  const feedsOn = config.FEEDS_ENABLED && (options.feeds ?? true)
  // The rooms in the order they depend on each other: feeds, then trading on them, then intake feeding
  // trading (onClose runs backwards: intake stops first, the feeds close last).
  if (feedsOn) await registerFeeds(app, config, options)
  await app.register(tradingPlugin, { config, feeds: feedsOn, entryFlow: options.entryFlow, clock: options.clock })
  if (feedsOn && options.feedHooks) app.feeds.addHooks(options.feedHooks)
  await app.register(tradeCloseRoutes)
  await app.register(killSwitchRoutes)
  if (options.consumers ?? true) {
    await app.register(alertConsumersPlugin, {
      routing: config.ALERT_ROUTING,
      flattens: app.trading.flattenDispatch,
      entryFlow: app.trading.entryFlow,
      concurrency: config.CONSUMER_CONCURRENCY,
      maxAttempts: config.CONSUMER_MAX_ATTEMPTS,
      ackWaitMs: config.CONSUMER_ACK_WAIT_MS,
      backoffMaxMs: config.CONSUMER_BACKOFF_MAX_MS,
    })
  }
  await app.register(brokerViewPlugin, { feeds: feedsOn, timeoutMs: config.ENTRY_FORWARD_TIMEOUT_MS, staleAfterMs: BROKER_SILENT_STALE_MS })
  return app
}

/** Where each broker's environments are reached, from the configuration. */
function brokerEndpoints(config: Config): BrokerEndpointsTable {
  const paper = { restUrl: config.PAPER_BROKER_URL, wsUrl: config.PAPER_BROKER_WS_URL, mdUrl: config.PAPER_BROKER_MD_URL ?? config.PAPER_BROKER_WS_URL }
  return {
    // The paper broker simulates both environments.
    paper: { demo: paper, live: paper },
    tradovate: {
      demo: { restUrl: config.TRADOVATE_DEMO_URL, wsUrl: config.TRADOVATE_DEMO_WS_URL, mdUrl: config.TRADOVATE_DEMO_MD_URL },
      live: { restUrl: config.TRADOVATE_LIVE_URL, wsUrl: config.TRADOVATE_LIVE_WS_URL, mdUrl: config.TRADOVATE_LIVE_MD_URL },
    },
    // ProjectX: the API base, the user hub and the market hub (feeds/broker/projectx/adapter.ts).
    projectx: {
      demo: { restUrl: config.PROJECTX_DEMO_API_URL, wsUrl: config.PROJECTX_DEMO_USER_HUB_URL, mdUrl: config.PROJECTX_DEMO_MARKET_HUB_URL },
      live: { restUrl: config.PROJECTX_LIVE_API_URL, wsUrl: config.PROJECTX_LIVE_USER_HUB_URL, mdUrl: config.PROJECTX_LIVE_MARKET_HUB_URL },
    },
  }
}

/** The feeds room: broker login tests and the per-user broker feeds. */
async function registerFeeds(app: FastifyInstance, config: Config, options: BuildOptions): Promise<void> {
  const endpoints = brokerEndpoints(config)
  // A broker login test needs no particular session: any instance with feeds answers (issue 25, item 4).
  await app.register(credentialsTestPlugin, {
    keys: { keyId: config.CREDENTIALS_KEY_ID, key: config.CREDENTIALS_KEY, previousKeys: config.CREDENTIALS_PREVIOUS_KEYS },
    adapters: new BrokerAdapters(options.brokerAdapters),
    endpoints,
    timeoutMs: config.BROKER_REQUEST_TIMEOUT_MS,
  })
  await app.register(feedsPlugin, {
    credentialsKeyId: config.CREDENTIALS_KEY_ID,
    credentialsKey: config.CREDENTIALS_KEY,
    credentialsPreviousKeys: config.CREDENTIALS_PREVIOUS_KEYS,
    adapters: options.brokerAdapters,
    statusRefreshMs: config.FEED_STATUS_REFRESH_MS,
    restingOwnLegs: config.PROJECTX_RESTING_OWN_LEGS,
    brokerTimeoutMs: config.BROKER_REQUEST_TIMEOUT_MS,
    forwardTimeoutMs: config.ENTRY_FORWARD_TIMEOUT_MS,
    consumers: { maxAttempts: config.CONSUMER_MAX_ATTEMPTS, concurrency: 1, ackWaitMs: config.CONSUMER_ACK_WAIT_MS, backoffMaxMs: config.CONSUMER_BACKOFF_MAX_MS },
    endpoints,
  })
  feedMetrics(app.metrics, () => app.feeds.feedCounts())
}
