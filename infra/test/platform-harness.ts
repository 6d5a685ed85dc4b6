import type { Test } from 'tap'
import type { AddressInfo } from 'node:net'
import { loadConfig } from '@signals/config'
import { startPaperBroker, type PaperAccount } from '@signals/dev-paper-broker'
import { buildApp as buildGateway } from '../../services/gateway/src/app.ts'
import { ConfigSchema as GatewayConfig } from '../../services/gateway/src/config.ts'
import { buildApp as buildAuth } from '../../services/auth/src/app.ts'
import { ConfigSchema as AuthConfig } from '../../services/auth/src/config.ts'
import { buildApp as buildAdmin } from '../../services/admin/src/app.ts'
import { ConfigSchema as AdminConfig } from '../../services/admin/src/config.ts'
import { buildApp as buildSettings } from '../../services/settings/src/app.ts'
import { ConfigSchema as SettingsConfig } from '../../services/settings/src/config.ts'
import { buildApp as buildIngest } from '../../services/ingest/src/app.ts'
import { ConfigSchema as IngestConfig } from '../../services/ingest/src/config.ts'
import { buildApp as buildConnector } from '../../services/broker-connector/src/app.ts'
import { ConfigSchema as ConnectorConfig } from '../../services/broker-connector/src/config.ts'
import { startPlatformEnvironment } from './platform-environment.ts'

const CLIENT_ID = 'signals-platform-test'
const CLIENT_SECRET = 'signals-platform-test-client-secret'

interface Listening {
  listen(options: { port: number; host: string }): Promise<string>
  close(): Promise<unknown>
  server: { address(): AddressInfo | string | null }
}

export interface PlatformOptions {
  adminEmail: string
  /** Accounts of a paper broker started for the test (none started when omitted). */
  brokerAccounts?: PaperAccount[]
  /** The paper broker's commission per contract filled (decimal text; none charged when omitted). */
  brokerCommission?: string
  /** The gateway's sign-in requests per minute per client (default 1000, so other tests never meet it). */
  authRateLimit?: number
}

/**
 * The whole platform for one test file, in this process: the real local OpenID Connect provider, every
 * service on a spare port of 127.0.0.1 behind the gateway, one database and one bus namespace of the
 * test's own (and a paper broker when asked). All of it stops at the file's end.
 */
export async function startPlatformServices(t: Test, options: PlatformOptions) {
  const { database, namespace, provider, gatewayPort, publicUrl, env: shared } = await startPlatformEnvironment({
    client: { id: CLIENT_ID, secret: CLIENT_SECRET },
    adminEmail: options.adminEmail,
    onCleanup: (step) => t.teardown(step),
  })
  const broker = options.brokerAccounts ? await startPaperBroker({ accounts: options.brokerAccounts, commissionPerContract: options.brokerCommission }) : undefined
  if (broker) t.teardown(() => broker.close())

  const env: Record<string, string | undefined> = {
    ...process.env,
    ...shared,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT: String(options.authRateLimit ?? 1000),
    ...(broker ? { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl } : { FEEDS_ENABLED: 'false' }),
  }
  const serve = async (app: Listening, port = 0): Promise<string> => {
    t.teardown(() => app.close())
    await app.listen({ port, host: '127.0.0.1' })
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  }
  // Ingest first: the admin service replays refused webhooks to it.
  const INGEST_URL = await serve(await buildIngest(loadConfig(IngestConfig, env)))
  const upstreams = {
    AUTH_URL: await serve(await buildAuth(loadConfig(AuthConfig, env))),
    ADMIN_URL: await serve(await buildAdmin(loadConfig(AdminConfig, { ...env, INGEST_URL }))),
    SETTINGS_URL: await serve(await buildSettings(loadConfig(SettingsConfig, env))),
    INGEST_URL,
    BROKER_CONNECTOR_URL: await serve(await buildConnector(loadConfig(ConnectorConfig, env))),
  }
  const gatewayConfig = loadConfig(GatewayConfig, { ...env, ...upstreams, GATEWAY_PORT: String(gatewayPort) })
  await serve(await buildGateway(gatewayConfig, { rateLimitNamespace: `${namespace}:auth-rate-limit:` }), gatewayPort)

  return { database, namespace, provider, broker, publicUrl, gatewayUrl: `http://127.0.0.1:${gatewayPort}`, ...upstreams }
}
