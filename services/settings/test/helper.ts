import type { Test } from 'tap'
import { loadConfig } from '@signals/config'
import { createTestDatabase, testNamespace, deleteNamespaceStreams } from '@signals/test-support'
import { buildApp } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'

/** Builds the settings app against real services (its own database and bus namespace) and tears it down. */
export async function build(t: Test, overrides: Record<string, string> = {}) {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const config: Config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace, ...overrides })
  const app = await buildApp(config)
  t.teardown(() => app.close())
  await app.ready()
  return { app, config, database, namespace }
}
