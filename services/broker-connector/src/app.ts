import { createServiceApp, dbPlugin, busPlugin, internalIdentityPlugin } from '@signals/http-kit'
import type { Config } from './config.ts'

/** Builds the broker-connector service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  const app = await createServiceApp({ service: 'broker-connector', logLevel: config.LOG_LEVEL, loggerStream: options.loggerStream })
  await app.register(dbPlugin, { connectionString: config.DATABASE_URL })
  await app.register(busPlugin, { url: config.NATS_URL, namespace: config.BUS_NAMESPACE })
  await app.register(internalIdentityPlugin, { secret: config.INTERNAL_AUTH_SECRET })
  return app
}
