// Child process of the ingest benchmarks: one webhook server on a spare port, in a process of its own so
// the load generator does not share its event loop. `bare` (a Fastify route answering `{success:true}`)
// or `ingest <nats urls> <namespace> <replicas>` (the real ingest service); reports `{ port }` over IPC
// and closes on 'stop'. Started by webhook-server.ts.
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { freePort } from '@signals/test-support'

/** The little of Fastify the bare route needs (the bench package has no Fastify types). */
interface BareApp {
  post(path: string, handler: () => Promise<unknown>): void
  listen(options: { host: string; port: number }): Promise<string>
  close(): Promise<void>
}

async function serveBare(port: number): Promise<() => Promise<void>> {
  // The same Fastify the ingest service runs (the bench package does not depend on it).
  const fastifyPath = createRequire(new URL('../../services/ingest/package.json', import.meta.url)).resolve('fastify')
  const { default: Fastify } = (await import(pathToFileURL(fastifyPath).href)) as { default: (options: { logger: boolean }) => BareApp }
  const app = Fastify({ logger: false })
  app.post('/webhook/alert', async () => ({ success: true }))
  await app.listen({ host: '127.0.0.1', port })
  return () => app.close()
}

async function serveIngest(port: number, [natsUrl, namespace, replicas]: string[]): Promise<() => Promise<void>> {
  const { loadIngestConfig } = await import('../../services/ingest/src/config.ts')
  const { buildApp } = await import('../../services/ingest/src/app.ts')
  const config = loadIngestConfig({
    ...process.env,
    NATS_URL: natsUrl,
    BUS_NAMESPACE: namespace,
    BUS_REPLICAS: replicas,
    LOG_LEVEL: 'warn',
    // Counted like in production, but never reached from the one load-generator address.
    INGEST_RATE_LIMIT_PER_MINUTE: '100000000',
  })
  const app = await buildApp(config)
  await app.listen({ host: '127.0.0.1', port })
  return () => app.close()
}

const [kind, ...args] = process.argv.slice(2)
const port = await freePort()
const close = kind === 'bare' ? await serveBare(port) : await serveIngest(port, args)
process.send?.({ port })
process.on('message', (message) => {
  if (message === 'stop') void close().finally(() => process.exit(0))
})
