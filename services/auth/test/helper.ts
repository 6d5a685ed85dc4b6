import type { Test } from 'tap'
import { loadConfig } from '@signals/config'
import { createTestDatabase } from '@signals/test-support'
import { startDevOidcProvider, type DevOidcProvider } from '@signals/dev-oidc-provider'
import { signInThroughProvider } from '@signals/dev-oidc-provider/test-client'
import { buildApp, type AuthAppOptions } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'

export const PUBLIC_URL = 'http://localhost:3000'
export const CLIENT_ID = 'signals-test'
export const CLIENT_SECRET = 'signals-test-client-secret'
export const ADMIN_EMAIL = 'Admin@Example.com'

/** A real local OpenID Connect provider for this test file, closed at its end. */
export async function startProvider(t: Test): Promise<DevOidcProvider> {
  const provider = await startDevOidcProvider({
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${PUBLIC_URL}/auth/google/callback`] }],
  })
  t.teardown(() => provider.close())
  return provider
}

/** Builds the auth app against real services (its own database, the shared Redis) and tears it down. */
export async function build(t: Test, overrides: Record<string, string> = {}, options: AuthAppOptions = {}) {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const config: Config = loadConfig(ConfigSchema, {
    ...process.env,
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    PUBLIC_URL,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    ADMIN_EMAIL,
    ...overrides,
  })
  const app = await buildApp(config, options)
  t.teardown(() => app.close())
  await app.ready()
  return { app, config, database }
}

type App = Awaited<ReturnType<typeof build>>['app']

/** `name=value` of a Set-Cookie for `name` in an inject response, or undefined. */
export function cookieFrom(response: { cookies: { name: string; value: string }[] }, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name)
  return cookie ? `${cookie.name}=${cookie.value}` : undefined
}

export interface SignInOptions {
  name?: string
  emailVerified?: boolean
  deny?: boolean
  /** Cookie header the browser already holds (say, a session id planted by an attacker). */
  cookie?: string
  returnTo?: string
  accept?: string
}

/** Signs in through auth and the real provider like a browser: /auth/google, the provider's form, the callback. */
export async function signIn(app: App, email: string, options: SignInOptions = {}) {
  const start = await app.inject({
    method: 'GET',
    url: options.returnTo === undefined ? '/auth/google' : `/auth/google?returnTo=${encodeURIComponent(options.returnTo)}`,
    headers: options.cookie ? { cookie: options.cookie } : {},
  })
  if (start.statusCode !== 302) throw new Error(`/auth/google answered ${start.statusCode}: ${start.body}`)
  const loginCookie = cookieFrom(start, 'signals.login')
  const { callbackUrl } = await signInThroughProvider({
    authorizationUrl: start.headers.location as string,
    email,
    name: options.name,
    emailVerified: options.emailVerified,
    deny: options.deny,
  })
  const callback = new URL(callbackUrl)
  const cookies = [options.cookie, loginCookie].filter(Boolean).join('; ')
  const response = await app.inject({
    method: 'GET',
    url: callback.pathname + callback.search,
    headers: { ...(cookies ? { cookie: cookies } : {}), accept: options.accept ?? 'text/html' },
  })
  return { start, callbackUrl, response, sessionCookie: cookieFrom(response, 'signals.sid') }
}
