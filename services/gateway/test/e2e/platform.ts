// The platform as the browser tests see it: Debian's chromium driven by playwright-core, the real
// development OpenID Connect provider, and auth, admin, settings and the gateway each listening on a port of
// its own over HTTP, as in production, on a test database and bus namespace of their own.
import type { Test } from 'tap'
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { loadConfig } from '@signals/config'
import { createTestDatabase, freePort, testNamespace, deleteNamespaceStreams, TEST_NATS_URL, TEST_REDIS_URL } from '@signals/test-support'
import { startDevOidcProvider } from '@signals/dev-oidc-provider'
import { buildApp as buildGateway } from '../../src/app.ts'
import { ConfigSchema as GatewayConfig } from '../../src/config.ts'
import { buildApp as buildAuth } from '../../../auth/src/app.ts'
import { ConfigSchema as AuthConfig } from '../../../auth/src/config.ts'
import { buildApp as buildAdmin } from '../../../admin/src/app.ts'
import { ConfigSchema as AdminConfig } from '../../../admin/src/config.ts'
import { buildApp as buildSettings } from '../../../settings/src/app.ts'
import { ConfigSchema as SettingsConfig } from '../../../settings/src/config.ts'

export const CHROMIUM = '/usr/bin/chromium'
const CLIENT_ID = 'signals-e2e'
const CLIENT_SECRET = 'signals-e2e-client-secret'

interface Listening {
  listen(options: { port: number; host: string }): Promise<string>
  close(): Promise<unknown>
  server: { address(): AddressInfo | string | null }
}

export interface BrowserTab {
  context: BrowserContext
  page: Page
}

export interface SignInOptions {
  name?: string
  verified?: boolean
  cancel?: boolean
}

/** `origin + path` of the page's URL, without the query. */
export function at(page: Page): string {
  const url = new URL(page.url())
  return `${url.origin}${url.pathname}`
}

/** Starts everything for one test file and stops it at the file's end. */
export async function startPlatform(t: Test, options: { adminEmail: string }) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser end-to-end tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium). It is not installed.`)
  }

  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))

  const gatewayPort = await freePort()
  // The browser's origin is localhost, as in development; services listen on 127.0.0.1.
  const publicUrl = `http://localhost:${gatewayPort}`
  const provider = await startDevOidcProvider({
    clients: [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${publicUrl}/auth/google/callback`] }],
  })
  t.teardown(() => provider.close())

  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    NATS_URL: TEST_NATS_URL,
    BUS_NAMESPACE: namespace,
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    ADMIN_EMAIL: options.adminEmail,
    AUTH_RATE_LIMIT: '1000',
  }

  const serve = async (app: Listening, port = 0): Promise<string> => {
    t.teardown(() => app.close())
    await app.listen({ port, host: '127.0.0.1' })
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  }
  const authUrl = await serve(await buildAuth(loadConfig(AuthConfig, env)))
  const adminUrl = await serve(await buildAdmin(loadConfig(AdminConfig, env)))
  const settingsUrl = await serve(await buildSettings(loadConfig(SettingsConfig, env)))
  const gatewayEnv = { ...env, AUTH_URL: authUrl, ADMIN_URL: adminUrl, SETTINGS_URL: settingsUrl, GATEWAY_PORT: String(gatewayPort) }
  await serve(await buildGateway(loadConfig(GatewayConfig, gatewayEnv), { rateLimitNamespace: `${namespace}:auth-rate-limit:` }), gatewayPort)

  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  t.teardown(() => browser.close())

  /** Everything that went wrong in a page: script errors, Content-Security-Policy refusals, missing files. */
  const complaints: string[] = []

  const newBrowser = async (): Promise<BrowserTab> => {
    const context = await browser.newContext()
    t.teardown(() => context.close())
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    page.on('pageerror', (error) => complaints.push(`${page.url()}: ${error.message}`))
    // Pages and their assets must all load; API answers are the services' business, not the pages'.
    page.on('response', (response) => {
      const url = new URL(response.url())
      if (response.status() >= 400 && !url.pathname.startsWith('/api/')) complaints.push(`${response.status()} for ${url.href}`)
    })
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content.Security.Policy|Refused to/i.test(message.text())) complaints.push(`${page.url()}: ${message.text()}`)
    })
    return { context, page }
  }

  /** From the gateway's sign-in page through the provider's form, to wherever the platform sends us. */
  const signIn = async (page: Page, email: string, signIn: SignInOptions = {}) => {
    await page.goto(`${publicUrl}/login.html`)
    await page.click('#sign-in')
    await page.waitForURL((url) => url.origin === provider.issuer && url.pathname.startsWith('/interaction/'))
    if (signIn.cancel) {
      await page.click('#cancel button')
    } else {
      await page.fill('#email', email)
      if (signIn.name !== undefined) await page.fill('#name', signIn.name)
      if (signIn.verified === false) await page.uncheck('#email_verified')
      await page.click('#sign-in button')
    }
    await page.waitForURL((url) => url.origin === publicUrl)
    await page.waitForLoadState('load')
  }

  return { publicUrl, complaints, newBrowser, signIn }
}
