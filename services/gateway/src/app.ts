import { createServiceApp } from '@signals/http-kit'
import type { Config } from './config.ts'

/** Builds the gateway service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  const app = await createServiceApp({ service: 'gateway', logLevel: config.LOG_LEVEL, loggerStream: options.loggerStream })
  return app
}
