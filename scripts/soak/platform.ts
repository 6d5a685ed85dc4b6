import { startDevOidcProvider, type DevOidcProvider } from '@signals/dev-oidc-provider'
import { startPaperBroker, type PaperBroker } from '@signals/dev-paper-broker'
import { connectBus } from '@signals/bus'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, TEST_NATS_URL, TEST_REDIS_URL, type TestDatabase } from '@signals/test-support'
import { startService, stopServices, waitHealthy, type ServiceProcess } from './processes.ts'

const CLIENT_ID = 'signals-soak'
const CLIENT_SECRET = 'signals-soak-client-secret'
export const TRADER_PASSWORD = 'soak-password'
/** Lets the soak read `/metrics` of the public services (gateway, ingest) too. */
export const METRICS_TOKEN = 'soak-metrics-token'

export interface SoakPlatform {
  database: TestDatabase
  namespace: string
  provider: DevOidcProvider
  broker: PaperBroker
  publicUrl: string
  gatewayUrl: string
  ingestUrls: string[]
  services: ServiceProcess[]
}

export interface PlatformShape {
  traders: number
  adminEmail: string
  ingestInstances: number
  connectorInstances: number
  /** Called for every request the paper broker sees (orders are counted from it). */
  onBrokerRequest: (request: { endpoint: string; body: unknown }) => void
}

/** The namespace's streams and its key-value buckets (streams `KV_<namespace>_...`). */
async function deleteNamespace(namespace: string): Promise<void> {
  await deleteNamespaceStreams(namespace)
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'soak-cleanup', ensureTopology: false })
  try {
    const buckets = `KV_${namespace.toUpperCase()}_`
    for await (const name of bus.jsm.streams.names()) if (name.startsWith(buckets)) await bus.jsm.streams.delete(name)
  } finally {
    await bus.close()
  }
}

/**
 * The whole platform on spare ports of 127.0.0.1, each service in its own process (as `pnpm start` runs
 * them), with a fresh database and bus namespace; the development provider and the paper broker (one
 * account per trader) run in this process: they stand in for Google and the broker.
 */
export async function startSoakPlatform(root: string, shape: PlatformShape, cleanup: (() => Promise<unknown>)[]): Promise<SoakPlatform> {
  const database = await createTestDatabase()
  cleanup.push(() => database.drop())
  const namespace = testNamespace()
  cleanup.push(() => deleteNamespace(namespace))
  const broker = await startPaperBroker({
    accounts: Array.from({ length: shape.traders }, (_, i) => ({ name: `trader-${i}`, password: TRADER_PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `SOAK${9000 + i}` })),
    onRequest: shape.onBrokerRequest,
  })
  cleanup.push(() => broker.close())
  const gatewayPort = await freePort()
  const publicUrl = `http://localhost:${gatewayPort}`
  const provider = await startDevOidcProvider({
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${publicUrl}/auth/google/callback`] }],
  })
  cleanup.push(() => provider.close())

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    NATS_URL: TEST_NATS_URL,
    BUS_NAMESPACE: namespace,
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    ADMIN_EMAIL: shape.adminEmail,
    AUTH_RATE_LIMIT: '100000',
    PAPER_BROKER_URL: broker.restUrl,
    PAPER_BROKER_WS_URL: broker.wsUrl,
    METRICS_TOKEN,
  }
  const services: ServiceProcess[] = []
  cleanup.push(() => stopServices(services))
  const start = async (name: string, entry: string, portVariable: string, extra: NodeJS.ProcessEnv = {}) => {
    const port = await freePort()
    const service = startService(root, name, entry, port, { ...env, ...extra, [portVariable]: String(port) })
    services.push(service)
    return service
  }
  const ingests: ServiceProcess[] = []
  for (let i = 1; i <= shape.ingestInstances; i++) ingests.push(await start(`ingest-${i}`, 'services/ingest/src/main.ts', 'INGEST_PORT'))
  const connectors: ServiceProcess[] = []
  // Every connector holds feeds: the instances share the users by shard lease (decisions/feed-ownership.md).
  for (let i = 1; i <= shape.connectorInstances; i++) {
    connectors.push(await start(`broker-connector-${i}`, 'services/broker-connector/src/main.ts', 'BROKER_CONNECTOR_PORT'))
  }
  const firstIngest = ingests[0]?.url ?? ''
  const upstreams = {
    AUTH_URL: (await start('auth', 'services/auth/src/main.ts', 'AUTH_PORT')).url,
    SETTINGS_URL: (await start('settings', 'services/settings/src/main.ts', 'SETTINGS_PORT')).url,
    ADMIN_URL: (await start('admin', 'services/admin/src/main.ts', 'ADMIN_PORT', { INGEST_URL: firstIngest })).url,
    INGEST_URL: firstIngest,
    BROKER_CONNECTOR_URL: connectors[0]?.url ?? '',
  }
  const gateway = startService(root, 'gateway', 'services/gateway/src/main.ts', gatewayPort, { ...env, ...upstreams, GATEWAY_PORT: String(gatewayPort) })
  services.push(gateway)
  for (const service of services) await waitHealthy(service)
  return { database, namespace, provider, broker, publicUrl, gatewayUrl: gateway.url, ingestUrls: ingests.map((ingest) => ingest.url), services }
}
