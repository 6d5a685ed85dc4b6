// Browser end to end: Debian's chromium, driven by playwright-core, signs in through the real pages of the
// gateway and the real development OpenID Connect provider, with auth, admin, settings and the gateway
// running as they do in production (each on its own port, over HTTP), on a test database of their own.
import t from 'tap'
import { existsSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { loadConfig } from '@signals/config'
import { createTestDatabase, freePort, testNamespace, deleteNamespaceStreams, TEST_NATS_URL, TEST_REDIS_URL } from '@signals/test-support'
import { startDevOidcProvider } from '@signals/dev-oidc-provider'
import { SESSION_COOKIE } from '@signals/sessions'
import { buildApp as buildGateway } from '../../src/app.ts'
import { ConfigSchema as GatewayConfig } from '../../src/config.ts'
import { buildApp as buildAuth } from '../../../auth/src/app.ts'
import { ConfigSchema as AuthConfig } from '../../../auth/src/config.ts'
import { buildApp as buildAdmin } from '../../../admin/src/app.ts'
import { ConfigSchema as AdminConfig } from '../../../admin/src/config.ts'
import { buildApp as buildSettings } from '../../../settings/src/app.ts'
import { ConfigSchema as SettingsConfig } from '../../../settings/src/config.ts'

const CHROMIUM = '/usr/bin/chromium'
if (!existsSync(CHROMIUM)) {
  throw new Error(`The browser end-to-end test needs Debian's chromium at ${CHROMIUM} (apt-get install chromium). It is not installed.`)
}

const ADMIN_EMAIL = 'e2e-admin@example.com'
const TRADER_EMAIL = 'e2e-trader@example.com'
const CLIENT_ID = 'signals-e2e'
const CLIENT_SECRET = 'signals-e2e-client-secret'

// ------------------------------------------------------------------------------------------- platform

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
  ADMIN_EMAIL,
  AUTH_RATE_LIMIT: '1000',
}

interface Listening {
  listen(options: { port: number; host: string }): Promise<string>
  close(): Promise<unknown>
  server: { address(): AddressInfo | string | null }
}

/** Starts a service on a free port of 127.0.0.1 and returns its base URL. */
async function serve(app: Listening, port = 0): Promise<string> {
  t.teardown(() => app.close())
  await app.listen({ port, host: '127.0.0.1' })
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
}

const authUrl = await serve(await buildAuth(loadConfig(AuthConfig, env)))
const adminUrl = await serve(await buildAdmin(loadConfig(AdminConfig, env)))
const settingsUrl = await serve(await buildSettings(loadConfig(SettingsConfig, env)))
const gatewayEnv = { ...env, AUTH_URL: authUrl, ADMIN_URL: adminUrl, SETTINGS_URL: settingsUrl, GATEWAY_PORT: String(gatewayPort) }
await serve(await buildGateway(loadConfig(GatewayConfig, gatewayEnv), { rateLimitNamespace: `${namespace}:auth-rate-limit:` }), gatewayPort)

// -------------------------------------------------------------------------------------------- browser

const browser: Browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
t.teardown(() => browser.close())

/** Everything that went wrong in a page: script errors, Content-Security-Policy refusals, missing files. */
const complaints: string[] = []

async function newBrowser(): Promise<{ context: BrowserContext; page: Page }> {
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

const at = (page: Page) => {
  const url = new URL(page.url())
  return `${url.origin}${url.pathname}`
}

/** From the gateway's sign-in page through the provider's form, to wherever the platform sends us. */
async function signIn(page: Page, email: string, options: { name?: string; verified?: boolean; cancel?: boolean } = {}) {
  await page.goto(`${publicUrl}/login.html`)
  await page.click('#sign-in')
  await page.waitForURL((url) => url.origin === provider.issuer && url.pathname.startsWith('/interaction/'))
  if (options.cancel) {
    await page.click('#cancel button')
  } else {
    await page.fill('#email', email)
    if (options.name !== undefined) await page.fill('#name', options.name)
    if (options.verified === false) await page.uncheck('#email_verified')
    await page.click('#sign-in button')
  }
  await page.waitForURL((url) => url.origin === publicUrl)
  await page.waitForLoadState('load')
}

// ---------------------------------------------------------------------------------------------- tests

const admin = await newBrowser()
const trader = await newBrowser()

t.test('a signed-out visitor is sent to the sign-in page', async (t) => {
  await admin.page.goto(`${publicUrl}/`)
  t.equal(at(admin.page), `${publicUrl}/login.html`)
  t.equal((await admin.page.textContent('#sign-in'))?.trim(), 'Sign in with Google')
  t.equal(await admin.page.getAttribute('#sign-in', 'href'), '/auth/google')
  t.equal(await admin.page.isVisible('#login-error'), false, 'no error without ?error=')
})

t.test('the administrator signs in through the provider and lands on the home page', async (t) => {
  await signIn(admin.page, ADMIN_EMAIL, { name: 'E2E Admin' })
  t.equal(at(admin.page), `${publicUrl}/`)
  await admin.page.waitForSelector('#admin:not([hidden])')
  t.match(await admin.page.textContent('#who-name'), `E2E Admin (${ADMIN_EMAIL})`)
  t.ok(await admin.page.isVisible('#sign-out'), 'a sign-out link')

  const session = (await admin.context.cookies(publicUrl)).find((cookie) => cookie.name === SESSION_COOKIE)
  t.ok(session, 'a session cookie')
  t.match(session, { httpOnly: true, sameSite: 'Lax', secure: false, path: '/' }, 'HttpOnly, SameSite=Lax, not Secure on http')
})

t.test('a new trader lands on the pending page, and stays there', async (t) => {
  await signIn(trader.page, TRADER_EMAIL, { name: 'E2E Trader' })
  t.equal(at(trader.page), `${publicUrl}/pending-approval.html`)
  t.match(await trader.page.textContent('h2'), /awaits approval/)
  await trader.page.goto(`${publicUrl}/`)
  t.equal(at(trader.page), `${publicUrl}/pending-approval.html`, 'the home page is closed to them')
})

t.test('the administrator approves the trader from the home page', async (t) => {
  await admin.page.reload()
  const row = admin.page.locator('#admin-users tr', { hasText: TRADER_EMAIL })
  await row.waitFor()
  t.match(await row.textContent(), /Awaiting approval/)
  await row.getByRole('button', { name: 'Approve' }).click()
  await admin.page.locator('#admin-message', { hasText: `${TRADER_EMAIL} approved.` }).waitFor()
  await row.waitFor({ state: 'detached' })
  t.pass('the trader left the list of those awaiting approval')

  await admin.page.selectOption('#admin-status', 'approved')
  const approved = admin.page.locator('#admin-users tr', { hasText: TRADER_EMAIL })
  await approved.waitFor()
  t.match(await approved.textContent(), /E2E Trader.*Approved/)
  t.equal(await approved.getByRole('button', { name: 'Approve' }).count(), 0, 'nothing left to approve')
})

t.test('the approval applies on the trader\'s very next request', async (t) => {
  await trader.page.click('#check-again')
  await trader.page.waitForURL(`${publicUrl}/`)
  t.equal(at(trader.page), `${publicUrl}/`)
  t.equal(await trader.page.isVisible('#admin'), false, 'a trader sees no administration')
})

t.test('sign-out ends the session', async (t) => {
  await trader.page.click('#sign-out')
  await trader.page.waitForURL((url) => url.pathname === '/login.html')
  await trader.page.goto(`${publicUrl}/`)
  t.equal(at(trader.page), `${publicUrl}/login.html`)
})

t.test('Cancel at the provider comes back to the sign-in page with a readable message', async (t) => {
  const { page } = await newBrowser()
  await signIn(page, '', { cancel: true })
  t.equal(at(page), `${publicUrl}/login.html`)
  t.equal(await page.textContent('#login-error'), 'Sign-in was cancelled at the provider.')
})

t.test('an unverified e-mail is refused with a readable message', async (t) => {
  const { page } = await newBrowser()
  await signIn(page, 'e2e-unverified@example.com', { verified: false })
  t.equal(at(page), `${publicUrl}/login.html`)
  t.match(await page.textContent('#login-error'), /not verified/)
})

t.test('a crafted ?error= cannot put words or markup on the sign-in page', async (t) => {
  const { page } = await newBrowser()
  await page.goto(`${publicUrl}/login.html?error=${encodeURIComponent('<img src=x onerror=alert(1)>Call 555-0100')}`)
  t.equal(await page.textContent('#login-error'), 'Sign-in did not complete. Please try again.')
  t.equal(await page.locator('#login-error img').count(), 0)
})

t.test('no page broke the Content-Security-Policy, threw, or missed a file', async (t) => {
  t.same(complaints, [])
})
