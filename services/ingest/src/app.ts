import { createServiceApp, busPlugin } from '@signals/http-kit'
import type { Config } from './config.ts'

/** Builds the ingest service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  const app = await createServiceApp({ service: 'ingest', logLevel: config.LOG_LEVEL, loggerStream: options.loggerStream })
  await app.register(busPlugin, { url: config.NATS_URL, namespace: config.BUS_NAMESPACE })
  return app
}
