import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'
import { stopTracing } from '@signals/telemetry'
import { letMemoryReducerSeeIdle } from './memory-reducer.ts'

/** The one line a service logs once it listens: name, address, environment and Node version. */
function startupSummary(service: string, address: string, env: NodeJS.ProcessEnv = process.env): string {
  return `${service} listening on ${address} (${env.NODE_ENV ?? 'development'}, Node ${process.version})`
}

/** For `main.ts`: closes the app cleanly on SIGINT/SIGTERM or a fatal error, then listens. */
export async function runService(app: FastifyInstance, listen: { host: string; port: number }): Promise<void> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'fatal error, closing')
    else app.log.info({ signal }, 'closing')
    await app.close()
    // The spans still held in the batch go out before the process ends.
    await stopTracing()
  })
  await listenWithSummary(app, listen)
  // What start-up allocated is given back once the service is idle, not 100 s after its last collection.
  letMemoryReducerSeeIdle()
}

/** Listens, with Fastify's own "Server listening at" line turned into the start-up summary. */
export async function listenWithSummary(app: FastifyInstance, listen: { host: string; port: number }): Promise<string> {
  return app.listen({ ...listen, listenTextResolver: (address) => startupSummary(app.serviceName, address) })
}
