import type { Test } from 'tap'
import { randomBytes } from 'node:crypto'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Fastify, { type FastifyRequest } from 'fastify'
import { loadConfig } from '@signals/config'
import { IDENTITY_HEADER, internalIdentityPlugin } from '@signals/http-kit'
import { createTestDatabase } from '@signals/test-support'
import { startDevOidcProvider } from '@signals/dev-oidc-provider'
import { signInThroughProvider } from '@signals/dev-oidc-provider/test-client'
import { buildApp, type GatewayAppOptions } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'
import { buildApp as buildAuthApp } from '../../auth/src/app.ts'
import { ConfigSchema as AuthConfigSchema } from '../../auth/src/config.ts'
import { buildApp as buildAdminApp } from '../../admin/src/app.ts'
import { ConfigSchema as AdminConfigSchema } from '../../admin/src/config.ts'

export const PUBLIC_URL = 'http://localhost:3000'
export const INTERNAL_AUTH_SECRET = 'gateway-test-internal-auth-secret-0123456789'
/** The metrics token the gateway is built with (/metrics and /ready detail need it). */
export const METRICS_TOKEN = 'gateway-test-metrics-token-0123456789'
export const unique = () => randomBytes(5).toString('hex')

/** What an echo upstream saw. */
export interface Echo {
  service: string
  method: string
  url: string
  identity: unknown
  headers: Record<string, unknown>
  body: string
}

/**
 * A real Fastify service standing in for settings, admin, the connector or ingest: it refuses /api calls
 * without a valid internal header (like every real service) and echoes what reached it.
 */
export async function startEcho(t: Test, service: string) {
  const app = Fastify()
  await app.register(internalIdentityPlugin, { secret: INTERNAL_AUTH_SECRET, audience: service })
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  const echo = async (request: FastifyRequest) => ({
    service,
    method: request.method,
    url: request.url,
    identity: request.identity ?? null,
    headers: request.headers,
    body: typeof request.body === 'string' ? request.body : '',
  })
  // Like a real service, /api has routes of its own (the identity check keys on the matched route).
  app.all('/api/*', echo)
  app.all('/*', echo)
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => app.close())
  const address = app.server.address()
  return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }
}

/** Static pages for the guard tests, so they do not depend on the real pages' content. */
async function testPages(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gateway-pages-'))
  for (const name of ['index.html', 'login.html', 'pending-approval.html']) await writeFile(path.join(dir, name), `<!doctype html><title>${name}</title>`)
  await writeFile(path.join(dir, 'styles.css'), 'body{}')
  return dir
}

export interface Platform {
  gateway: Awaited<ReturnType<typeof buildApp>>
  auth: Awaited<ReturnType<typeof buildAuthApp>>
  config: Config
  adminEmail: string
  databaseUrl: string
  upstreams: Record<'settings' | 'admin' | 'connector' | 'ingest', string>
}

/**
 * The front door as deployed: the real dev OpenID Connect provider, the real auth service (listening), echo
 * upstreams for the other services, and the gateway (driven with inject).
 */
export async function startPlatform(t: Test, overrides: Record<string, string> = {}, options: GatewayAppOptions & { upstreams?: Partial<Platform['upstreams']>; realAdmin?: boolean } = {}): Promise<Platform> {
  const adminEmail = `admin-${unique()}@example.com`
  const clientId = 'gateway-test'
  const clientSecret = 'gateway-test-client-secret'
  const publicUrl = overrides.PUBLIC_URL ?? PUBLIC_URL
  const provider = await startDevOidcProvider({ clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [`${publicUrl}/auth/google/callback`] }] })
  t.teardown(() => provider.close())
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const shared = {
    ...process.env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    PUBLIC_URL: publicUrl,
    INTERNAL_AUTH_SECRET,
    ADMIN_EMAIL: adminEmail,
    ...overrides,
  }
  const auth = await buildAuthApp(
    loadConfig(AuthConfigSchema, { ...shared, DATABASE_URL: database.url, OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret }),
  )
  await auth.listen({ port: 0, host: '127.0.0.1' })
  t.teardown(() => auth.close())
  const authAddress = auth.server.address()
  const authUrl = `http://127.0.0.1:${typeof authAddress === 'object' && authAddress ? authAddress.port : 0}`

  let realAdmin: string | undefined
  if (options.realAdmin) {
    const admin = await buildAdminApp(loadConfig(AdminConfigSchema, { ...shared, DATABASE_URL: database.url }))
    await admin.listen({ port: 0, host: '127.0.0.1' })
    t.teardown(() => admin.close())
    const address = admin.server.address()
    realAdmin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  }
  const upstreams = {
    settings: options.upstreams?.settings ?? (await startEcho(t, 'settings')).url,
    admin: realAdmin ?? options.upstreams?.admin ?? (await startEcho(t, 'admin')).url,
    connector: options.upstreams?.connector ?? (await startEcho(t, 'broker-connector')).url,
    ingest: options.upstreams?.ingest ?? (await startEcho(t, 'ingest')).url,
  }
  const config: Config = loadConfig(ConfigSchema, {
    ...shared,
    OIDC_ISSUER: provider.issuer,
    AUTH_URL: authUrl,
    SETTINGS_URL: upstreams.settings,
    ADMIN_URL: upstreams.admin,
    BROKER_CONNECTOR_URL: upstreams.connector,
    INGEST_URL: upstreams.ingest,
  })
  const { upstreams: _upstreams, realAdmin: _realAdmin, ...gatewayOptions } = options
  const gateway = await buildApp(config, { publicDir: await testPages(), rateLimitNamespace: `test-rl-${unique()}:`, ...gatewayOptions })
  t.teardown(() => gateway.close())
  await gateway.ready()
  return { gateway, auth, config, adminEmail, databaseUrl: database.url, upstreams }
}

export function cookieFrom(response: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name)
  return cookie ? `${cookie.name}=${cookie.value}` : undefined
}

export const sessionIdOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1] ?? '').replace(/\.[^.]*$/, '')

/** Signs in through the gateway like a browser; returns the session cookie and where the browser landed. */
export async function signIn(gateway: Platform['gateway'], email: string, options: { cookie?: string; headers?: Record<string, string> } = {}) {
  const start = await gateway.inject({ method: 'GET', url: '/auth/google', headers: { ...options.headers, ...(options.cookie ? { cookie: options.cookie } : {}) } })
  if (start.statusCode !== 302) throw new Error(`/auth/google answered ${start.statusCode}: ${start.body}`)
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.location as string, email })
  const callback = new URL(callbackUrl)
  const cookie = [options.cookie, cookieFrom(start, 'signals.login')].filter(Boolean).join('; ')
  const response = await gateway.inject({ method: 'GET', url: callback.pathname + callback.search, headers: { ...options.headers, cookie, accept: 'text/html' } })
  const sessionCookie = cookieFrom(response, 'signals.sid')
  return { response, location: response.headers.location, sessionCookie: sessionCookie as string }
}

export { IDENTITY_HEADER }

/** The gateway alone (upstreams unreachable), for tests of its own endpoints. */
export async function build(t: Test, overrides: Record<string, string> = {}, options: GatewayAppOptions = {}) {
  const config: Config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', METRICS_TOKEN, ...overrides })
  const app = await buildApp(config, { publicDir: await testPages(), rateLimitNamespace: `test-rl-${unique()}:`, ...options })
  t.teardown(() => app.close())
  await app.ready()
  return { app, config }
}
