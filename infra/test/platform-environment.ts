// What the in-process platform test (platform-harness.ts) and the soak (scripts/soak/platform.ts) both
// start before any service: a database and a bus namespace of their own, the gateway's port and public
// URL, the development OpenID Connect provider, and the variables every service reads from them.
import { startDevOidcProvider, type DevOidcProvider } from '@signals/dev-oidc-provider'
import { connectBus } from '@signals/bus'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, TEST_NATS_URL, TEST_REDIS_URL, type TestDatabase } from '@signals/test-support'

export interface PlatformEnvironmentOptions {
  /** The gateway's client at the provider. */
  client: { id: string; secret: string }
  adminEmail: string
  /** Takes a step to run when the platform stops (registered in the order things start). */
  onCleanup: (step: () => Promise<unknown>) => void
}

export interface PlatformEnvironment {
  database: TestDatabase
  namespace: string
  provider: DevOidcProvider
  gatewayPort: number
  publicUrl: string
  /** The variables every service shares; callers add their own (log level, rate limits, broker). */
  env: Record<string, string>
}

/** The namespace's streams and its key-value buckets (streams `KV_<namespace>_...`). */
async function deleteNamespace(namespace: string): Promise<void> {
  await deleteNamespaceStreams(namespace)
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'platform-cleanup', ensureTopology: false })
  try {
    const buckets = `KV_${namespace.toUpperCase()}_`
    for await (const name of bus.jsm.streams.names()) if (name.startsWith(buckets)) await bus.jsm.streams.delete(name)
  } finally {
    await bus.close()
  }
}

export async function startPlatformEnvironment(options: PlatformEnvironmentOptions): Promise<PlatformEnvironment> {
  const database = await createTestDatabase()
  options.onCleanup(() => database.drop())
  const namespace = testNamespace()
  options.onCleanup(() => deleteNamespace(namespace))
  const gatewayPort = await freePort()
  // The browser's origin is localhost, as in development; services listen on 127.0.0.1.
  const publicUrl = `http://localhost:${gatewayPort}`
  const provider = await startDevOidcProvider({
    clients: [{ client_id: options.client.id, client_secret: options.client.secret, redirect_uris: [`${publicUrl}/auth/google/callback`] }],
  })
  options.onCleanup(() => provider.close())
  const env = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    NATS_URL: TEST_NATS_URL,
    BUS_NAMESPACE: namespace,
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: options.client.id,
    OIDC_CLIENT_SECRET: options.client.secret,
    ADMIN_EMAIL: options.adminEmail,
  }
  return { database, namespace, provider, gatewayPort, publicUrl, env }
}
