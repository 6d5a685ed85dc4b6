import type { Test } from 'tap'
import { randomBytes } from 'node:crypto'
import { loadConfig } from '@signals/config'
import { IDENTITY_HEADER } from '@signals/http-kit'
import { signIdentitiesOnInject, unsignedIdentity, createTestDatabase } from '@signals/test-support'
import { sql } from '@signals/db'
import { buildApp } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'

export const unique = () => randomBytes(5).toString('hex')

/** Builds the admin app against real services (its own database, the shared Redis) and tears it down. */
export async function build(t: Test, overrides: Record<string, string> = {}) {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const adminEmail = `admin-${unique()}@example.com`
  const config: Config = loadConfig(ConfigSchema, {
    ...process.env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    ADMIN_EMAIL: adminEmail,
    ...overrides,
  })
  const app = await buildApp(config)
  signIdentitiesOnInject(app, config.INTERNAL_AUTH_SECRET, 'admin')
  t.teardown(() => app.close())
  await app.ready()
  return { app, config, database, adminEmail }
}

type App = Awaited<ReturnType<typeof build>>['app']

/** The header the gateway would set for this caller (signed per request by the app's inject). */
export function as(_config: Config, identity: { userId: string; email: string; role: 'trader' | 'admin' }) {
  return { [IDENTITY_HEADER]: unsignedIdentity({ ...identity, approved: true }) }
}

/** Inserts a user row the way auth's sign-in would have. */
export async function insertUser(app: App, user: { userId: string; email: string; approved?: boolean; role?: 'trader' | 'admin'; name?: string; createdAt?: string }) {
  await sql`INSERT INTO users (user_id, email, name, approved, role, created_at)
    VALUES (${user.userId}, ${user.email}, ${user.name ?? null}, ${user.approved ?? false}, ${user.role ?? 'trader'}, ${user.createdAt ?? new Date().toISOString()})`.execute(app.db)
}
