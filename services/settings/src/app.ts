import { createServiceApp, busPlugin, natsCredentials, internalIdentityPlugin, openapiPlugin } from '@signals/http-kit'
import { dbPlugin } from '@signals/db'
import { credentialsCipherFrom, type Config } from './config.ts'
import { settingsErrorAnswers } from './storage-failure.ts'
import { feedCommandRelayPlugin } from './plugins/feed-command-relay.ts'
import { createFeedStatusReader } from './feed/feed-status-reader.ts'
import { tradingSettingsRoutes } from './routes/trading-settings.ts'
import { liveTradingStatusRoutes } from './routes/live-trading-status.ts'
import { riskEngineConfigRoutes } from './routes/risk-engine-config.ts'
import { riskEnginePresetRoutes } from './routes/risk-engine-presets.ts'
import { brokerCredentialsRoutes } from './routes/broker-credentials.ts'
import { brokersRoutes } from './routes/brokers.ts'
import { brokerCredentialsTestRoutes } from './routes/broker-credentials-test.ts'
import { notificationChannelRoutes } from './routes/notification-channels.ts'
import { notificationSendRoutes } from './routes/notification-sends.ts'
import { notificationsPlugin } from './notifications/plugin.ts'
import { signalSourceRoutes } from './routes/signal-sources.ts'
import { accountRoutes } from './routes/accounts.ts'
import { signalSourceKeyRelayPlugin } from './plugins/signal-source-key-relay.ts'

/** Builds the settings service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  // Fails at start, before any request, when a key is malformed.
  const cipher = credentialsCipherFrom(config)

  const app = await createServiceApp({
    service: 'settings',
    logLevel: config.LOG_LEVEL,
    loggerStream: options.loggerStream,
    errors: settingsErrorAnswers,
    logRedaction: { paths: ['config.CREDENTIALS_KEY', 'config.INTERNAL_AUTH_SECRET'] },
  })
  await app.register(dbPlugin, { connectionString: config.DATABASE_URL })
  await app.register(busPlugin, { url: config.NATS_URL, credentials: natsCredentials(config), namespace: config.BUS_NAMESPACE, replicas: config.BUS_REPLICAS })
  await app.register(internalIdentityPlugin, { secret: config.INTERNAL_AUTH_SECRET, audience: 'settings' })
  await app.register(openapiPlugin, {
    title: 'Settings',
    description: 'Trading settings, live-trading status, risk-engine configuration, broker credentials and notification channels',
  })

  const feedStatus = createFeedStatusReader(app.bus, { timeoutMs: 1_000, logger: app.log })
  const routeOptions = { feedPublishTimeoutMs: config.FEED_PUBLISH_TIMEOUT_MS }
  await app.register(tradingSettingsRoutes, routeOptions)
  await app.register(liveTradingStatusRoutes, { ...routeOptions, feedStatus, cipher, feedDownGraceMs: config.FEED_DOWN_GRACE_MS })
  await app.register(riskEngineConfigRoutes, routeOptions)
  await app.register(riskEnginePresetRoutes)
  await app.register(brokerCredentialsRoutes, { ...routeOptions, cipher, credentialsTestTimeoutMs: config.CREDENTIALS_TEST_TIMEOUT_MS })
  await app.register(brokersRoutes)
  await app.register(accountRoutes, { ...routeOptions, cipher, feedStatus, feedDownGraceMs: config.FEED_DOWN_GRACE_MS, credentialsTestTimeoutMs: config.CREDENTIALS_TEST_TIMEOUT_MS })
  await app.register(brokerCredentialsTestRoutes, { credentialsTestTimeoutMs: config.CREDENTIALS_TEST_TIMEOUT_MS })
  const sender = { telegramApiUrl: config.NOTIFY_TELEGRAM_API_URL, timeoutMs: config.NOTIFY_SEND_TIMEOUT_MS }
  const targets = { discordWebhookPrefix: config.NOTIFY_DISCORD_WEBHOOK_PREFIX, allowHttpWebhooks: config.NOTIFY_ALLOW_HTTP_WEBHOOKS }
  await app.register(notificationChannelRoutes, { cipher, targets })
  await app.register(notificationSendRoutes, { cipher, sender })

  await app.register(signalSourceRoutes, { publicUrl: config.PUBLIC_URL })

  await app.register(feedCommandRelayPlugin, { intervalMs: config.FEED_RELAY_INTERVAL_MS, timeoutMs: config.FEED_PUBLISH_TIMEOUT_MS })
  await app.register(notificationsPlugin, {
    cipher,
    relayIntervalMs: config.NOTIFY_RELAY_INTERVAL_MS,
    dispatchIntervalMs: config.NOTIFY_DISPATCH_INTERVAL_MS,
    dispatch: { sender, maxAttempts: config.NOTIFY_MAX_ATTEMPTS, retryBaseMs: config.NOTIFY_RETRY_BASE_MS, batch: 20 },
  })
  await app.register(signalSourceKeyRelayPlugin, { intervalMs: config.FEED_RELAY_INTERVAL_MS })
  return app
}
