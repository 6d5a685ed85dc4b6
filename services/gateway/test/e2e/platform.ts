// The platform as the browser tests see it: Debian's chromium driven by playwright-core in front of the
// whole platform (infra/test/platform-harness.ts): the real development OpenID Connect provider and every
// service on a port of its own over HTTP, as in production, on a test database and bus namespace of their own.
import type { Test } from 'tap'
import { existsSync } from 'node:fs'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { startPlatformServices, type PlatformOptions } from '../../../../infra/test/platform-harness.ts'

export const CHROMIUM = '/usr/bin/chromium'

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
export async function startPlatform(t: Test, options: PlatformOptions) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser end-to-end tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium). It is not installed.`)
  }

  const { publicUrl, provider, broker } = await startPlatformServices(t, options)

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

  return { publicUrl, complaints, newBrowser, signIn, broker }
}
