import { createServiceApp, dbPlugin, internalIdentityPlugin } from '@signals/http-kit'
import type { Config } from './config.ts'

/** Builds the admin service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  const app = await createServiceApp({ service: 'admin', logLevel: config.LOG_LEVEL, loggerStream: options.loggerStream })
  await app.register(dbPlugin, { connectionString: config.DATABASE_URL })
  await app.register(internalIdentityPlugin, { secret: config.INTERNAL_AUTH_SECRET })
  return app
}
