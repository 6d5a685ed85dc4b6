import { createServiceApp, busPlugin, natsCredentials, openapiPlugin, serverTimeouts } from '@signals/http-kit'
import { listOf } from '@signals/config'
import type { Config } from './config.ts'
import { rawBodyPlugin } from './http/raw-body.ts'
import { clientAddressPlugin } from './plugins/client-address.ts'
import { intakeLogPlugin } from './plugins/intake-log.ts'
import { rateLimitPlugin } from './plugins/rate-limit.ts'
import { webhookRoutes } from './routes/webhook.ts'
import { describeWebhook } from './schemas/webhook-docs.ts'
import { SecretRedactor } from './webhook-secret.ts'

/** Builds the ingest service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  const trustedProxies = listOf(config.INGEST_TRUSTED_PROXY)
  const app = await createServiceApp({
    service: 'ingest',
    logLevel: config.LOG_LEVEL,
    loggerStream: options.loggerStream,
    bodyLimit: config.INGEST_BODY_LIMIT,
    trustProxy: trustedProxies.length > 0 ? trustedProxies : false,
    internalSurfaces: { token: config.METRICS_TOKEN },
    timeouts: serverTimeouts(config),
    maxConnectionsPerAddress: config.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    logRedaction: { paths: ['req.headers["x-webhook-secret"]', 'config.WEBHOOK_SECRET', 'config.INTERNAL_AUTH_SECRET'], secretPathPrefixes: ['/webhook/alert/', '/webhook/s/'] },
  })
  const streamMaxBytes = { alerts: config.INGEST_ALERTS_STREAM_MAX_BYTES, intake: config.INGEST_INTAKE_STREAM_MAX_BYTES }
  await app.register(busPlugin, { url: config.NATS_URL, credentials: natsCredentials(config), namespace: config.BUS_NAMESPACE, replicas: config.BUS_REPLICAS, streamMaxBytes })
  await app.register(rawBodyPlugin, { bodyLimit: config.INGEST_BODY_LIMIT })
  await app.register(openapiPlugin, { title: 'Signals webhook', description: 'Alerts from TradingView and other platforms.', prefixes: ['/webhook/'], extend: describeWebhook })
  // One scope for the webhook: its hooks (client address, intake log, rate limit) never see /health or /metrics.
  await app.register(async (webhook) => {
    const redactor = new SecretRedactor(config.WEBHOOK_SECRET === undefined ? [] : [config.WEBHOOK_SECRET])
    await webhook.register(clientAddressPlugin, { internalAuthSecret: config.INTERNAL_AUTH_SECRET, allowedSources: config.INGEST_ALLOWED_SOURCES })
    await webhook.register(intakeLogPlugin, { redactor, refusedBodyBytes: config.INGEST_REFUSED_BODY_BYTES })
    await webhook.register(rateLimitPlugin, { perMinute: config.INGEST_RATE_LIMIT_PER_MINUTE })
    await webhook.register(webhookRoutes, { config })
  })
  return app
}
