import { createServiceApp, busPlugin } from '@signals/http-kit'
import { listOf } from '@signals/config'
import type { Config } from './config.ts'
import { rawBodyPlugin } from './http/raw-body.ts'
import { webhookRoutes } from './routes/webhook.ts'

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
  })
  await app.register(busPlugin, { url: config.NATS_URL, namespace: config.BUS_NAMESPACE })
  await app.register(rawBodyPlugin, { bodyLimit: config.INGEST_BODY_LIMIT })
  await app.register(webhookRoutes, { config })
  return app
}
