import type { DevOidcProvider } from '@signals/dev-oidc-provider'
import { startPaperBroker, type PaperBroker } from '@signals/dev-paper-broker'
import { freePort, type TestDatabase } from '@signals/test-support'
import { startPlatformEnvironment } from '../../infra/test/platform-environment.ts'
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

/**
 * The whole platform on spare ports of 127.0.0.1, each service in its own process (as `pnpm start` runs
 * them), with a fresh database and bus namespace; the development provider and the paper broker (one
 * account per trader) run in this process: they stand in for Google and the broker.
 */
export async function startSoakPlatform(root: string, shape: PlatformShape, cleanup: (() => Promise<unknown>)[]): Promise<SoakPlatform> {
  const { database, namespace, provider, gatewayPort, publicUrl, env: shared } = await startPlatformEnvironment({
    client: { id: CLIENT_ID, secret: CLIENT_SECRET },
    adminEmail: shape.adminEmail,
    onCleanup: (step) => cleanup.push(step),
  })
  const broker = await startPaperBroker({
    accounts: Array.from({ length: shape.traders }, (_, i) => ({ name: `trader-${i}`, password: TRADER_PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `SOAK${9000 + i}` })),
    onRequest: shape.onBrokerRequest,
  })
  cleanup.push(() => broker.close())

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    HOST: '127.0.0.1',
    ...shared,
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
