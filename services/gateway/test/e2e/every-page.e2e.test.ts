// Issue 25, items 7 and 10: every page of the gateway in one browser, at desktop (1280 px) and phone
// (390 px) width, light and dark: axe-core finds no serious or critical violation, and at 390 px nothing is
// wider than the screen. Each page is loaded once and photographed in all four (artifacts/every-page-*.png).
// On the home page the trades and alerts lists are scripted (a SHORT trade with untrimmed decimals, the connector's own
// shape) so the phone's cards are checked with something in them: "SHORT" on one line, prices on MNQ's tick,
// times in the trader's zone with Chicago's beside; the console's Approve button is on screen without a
// sideways swipe. The Signal sources page is swept with a new source's URL and messages shown, and the Accounts
// page with a second account and its risk settings open (issue 22).
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { eventually } from '@signals/test-support'
import { at, startPlatform } from './platform.ts'
import { ARTIFACTS, DESKTOP, PHONE, seriousViolations } from './page-checks.ts'
import { mkdirSync } from 'node:fs'

const ADMIN_EMAIL = 'e2e-every-page-admin@example.com'
const NEWCOMER_EMAIL = 'e2e-every-page-newcomer@example.com'
// The Accounts page's new login is tried at the broker before it is stored: the paper broker knows it.
const { publicUrl, complaints, newBrowser, signIn } = await startPlatform(t, {
  adminEmail: ADMIN_EMAIL,
  brokerAccounts: [{ name: 'every-page', password: 'every-page-password', userId: 100, accountId: 1, accountName: 'EVERY-2' }],
})
mkdirSync(ARTIFACTS, { recursive: true })

// (Strings: these tests are type-checked without the DOM library.)
const WIDTH = `({
  page: document.documentElement.scrollWidth,
  overflowing: [...document.querySelectorAll('body *')]
    .filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > window.innerWidth + 1)
    .filter((element) => !element.closest('.visually-hidden, thead, dialog:not([open])'))
    .slice(0, 5)
    .map((element) => element.tagName.toLowerCase() + '#' + element.id + '.' + element.className + ': ' + (element.textContent ?? '').trim().slice(0, 50)),
})`

/** Desktop and phone, light and dark: axe each time, the phone's width, a full-page screenshot. */
async function sweep(t: Test, page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size)
      const where = `${name} at ${size.width} px, ${scheme}`
      t.same(await seriousViolations(page), [], `${where}: no serious or critical axe violation`)
      if (size === PHONE) {
        const width = await page.evaluate<{ page: number; overflowing: string[] }>(WIDTH)
        t.same(width.overflowing, [], `${where}: nothing reaches past the screen's edge`)
        t.ok(width.page <= PHONE.width, `${where}: no sideways scroll (${width.page} px wide)`)
      }
      await page.screenshot({ path: new URL(`every-page-${name}-${size.width}-${scheme}.png`, ARTIFACTS).pathname, fullPage: true })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize(DESKTOP)
}

const NOW = new Date().toISOString()
const trade = (fields: Record<string, unknown>) => ({
  id: '1',
  symbol: 'MNQ1!',
  root: 'MNQ',
  side: 'LONG',
  quantity: '1',
  entryPrice: '21000.00000000',
  exitPrice: null,
  status: 'open',
  result: null,
  pnl: null,
  closeAlertId: null,
  openedAt: NOW,
  closedAt: null,
  alertRecordId: null,
  contract: 'MNQZ6',
  accountId: '3f0c9a52-6a43-4d0e-9b1e-2f4a8c1d7e60',
  brokerAccountId: '9000',
  entryOrderId: null,
  stopOrderId: null,
  targetOrderId: null,
  brokerExitPrice: null,
  signalExitPrice: null,
  exitRequestedAt: null,
  exitNote: null,
  parentTradeId: null,
  closeReason: null,
  ...fields,
})
const TRADES = [
  trade({ id: '2', side: 'SHORT', quantity: '12', entryPrice: '21000.00000000', exitPrice: '20990.25000000', status: 'closed', result: 'TP', pnl: '234.00000000', closedAt: NOW }),
  trade({ id: '1' }),
]

const ALERTS = [
  {
    id: '7',
    alertId: 'a7',
    accountId: '3f0c9a52-6a43-4d0e-9b1e-2f4a8c1d7e60',
    symbol: 'MNQ1!',
    root: 'MNQ',
    action: 'SHORT',
    entryPrice: '21000.00000000',
    sl: '21050.00000000',
    tp: null,
    indicator: null,
    leverage: null,
    rawData: {},
    status: 'refused',
    reason: 'the daily loss limit of $500.00 is reached for trading day 2026-11-26; no new entries until the next trading day',
    refusalCode: 'daily_loss',
    alertQuantity: null,
    orderQuantity: null,
    orderTag: null,
    contract: null,
    entryOrderId: null,
    stopOrderId: null,
    targetOrderId: null,
    placedAt: null,
    receivedAt: NOW,
    createdAt: NOW,
  },
]

const guest = await newBrowser()
const newcomer = await newBrowser()
const admin = await newBrowser()

t.test('sign-in page (with a ban reason)', async (t) => {
  await guest.page.goto(`${publicUrl}/login.html?error=banned&reason=Abusive%20alerts%20from%20a%20very-long-unbroken-address%40example.com`)
  await guest.page.locator('#login-error').waitFor()
  await sweep(t, guest.page, 'login')
})

t.test('pending page', async (t) => {
  await signIn(newcomer.page, NEWCOMER_EMAIL, { name: 'New Trader' })
  t.equal(at(newcomer.page), `${publicUrl}/pending-approval.html`)
  await sweep(t, newcomer.page, 'pending')
})

t.test('home page: activity, settings, credentials, notifications, administration', async (t) => {
  const page = admin.page
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) })
  await page.route(`${publicUrl}/api/trades**`, (route) => {
    const status = new URL(route.request().url()).searchParams.get('status')
    return route.fulfill(json({ success: true, trades: TRADES.filter((one) => status === null || one.status === status), nextCursor: null }))
  })
  await page.route(`${publicUrl}/api/alerts**`, (route) => route.fulfill(json({ success: true, alerts: ALERTS, nextCursor: null })))
  await signIn(page, ADMIN_EMAIL, { name: 'Every Page Admin' })
  t.equal(at(page), `${publicUrl}/`)
  await page.locator('#alerts-body tr').first().waitFor()
  await page.locator('#trades-body tr[data-status="closed"]').waitFor()
  await page.locator('#save-settings:not([disabled])').waitFor()
  await page.locator('#admin-users tr td[data-label]').first().waitFor()
  await page.locator('#room-chart canvas').waitFor()

  const closed = page.locator('#trades-body tr[data-status="closed"]')
  t.match(await closed.textContent(), /21000\.00 → 20990\.25/, "prices on MNQ's 0.25 tick")
  t.match(await closed.locator('td').first().textContent(), /\d\d:\d\d:\d\d .+ · ([A-Z][a-z]{2} \d{1,2}, )?\d\d:\d\d CT/, "the trader's time with Chicago's beside")
  t.match(await page.locator('#alerts-body tr').first().locator('td').first().textContent(), /\d\d:\d\d:\d\d .+ · ([A-Z][a-z]{2} \d{1,2}, )?\d\d:\d\d CT/, 'the alert too')

  await page.setViewportSize(PHONE)
  // One line: the text's boxes all share one top.
  const sideLines = await page.evaluate<number>(`(() => {
    const range = document.createRange()
    range.selectNodeContents(document.querySelector('#trades-body tr[data-status="closed"] td.nowrap'))
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
  })()`)
  t.equal(await closed.locator('td.nowrap').textContent(), 'SHORT 12')
  t.equal(sideLines, 1, '"SHORT 12" on one line at 390 px')
  const pnl = await closed.locator('td.pnl').boundingBox()
  t.ok(pnl !== null && pnl.x >= 0 && pnl.x + pnl.width <= PHONE.width, 'the PnL is on screen at 390 px')
  t.equal(await closed.locator('td.pnl').getAttribute('data-label'), 'PnL before commissions', 'labelled in its card')
  await page.setViewportSize(DESKTOP)
  await sweep(t, page, 'home')
})

t.test('console: pending with Approve in reach, bans, audit, intake', async (t) => {
  const page = admin.page
  const banned = await page.evaluate(async () => {
    const response = await fetch('/api/admin/bans', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'e2e-every-page-banned@example.com', reason: 'Sent alerts for other people' }) })
    return response.status
  })
  t.equal(banned, 201, 'a ban to list')
  await page.goto(`${publicUrl}/console.html`)
  const approve = page.getByRole('button', { name: `Approve ${NEWCOMER_EMAIL}` })
  await approve.waitFor()
  await page.locator('#bans-body tr td[data-label]').first().waitFor()
  await page.setViewportSize(PHONE)
  const box = await approve.boundingBox()
  t.ok(box !== null && box.x >= 0 && box.x + box.width <= PHONE.width, `Approve is on screen at 390 px without a swipe (${JSON.stringify(box)})`)
  await page.setViewportSize(DESKTOP)
  await sweep(t, page, 'console')
})

t.test('Positions and Webhooks pages', async (t) => {
  const page = admin.page
  await page.goto(`${publicUrl}/broker.html`)
  await page.locator('#session-state[data-state]').waitFor()
  await sweep(t, page, 'positions')
  const me = await page.evaluate(async () => (await fetch('/auth/me')).json() as Promise<{ user: { userId: string } }>)
  const posted = await fetch(`${publicUrl}/webhook/alert`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: `{"user_id":"${me.user.userId}","action":"sell" "symbol":"MNQ1!"}`,
  })
  t.equal(posted.status, 400, 'a malformed webhook for the list')
  await page.goto(`${publicUrl}/webhooks.html`)
  // The intake log reaches the admin service through the bus: the page shows what has arrived.
  await eventually(
    async () => {
      await page.reload()
      return (await page.locator('#intake-body tr[data-outcome]').count()) > 0
    },
    { timeoutMs: 20_000, intervalMs: 500, what: "the trader's webhook on the page" },
  )
  await sweep(t, page, 'webhooks')
})

t.test('Signal sources page, with a new URL and its messages shown', async (t) => {
  const page = admin.page
  await page.goto(`${publicUrl}/sources.html`)
  await page.locator('#mine-empty:not([hidden])').waitFor()
  await page.fill('#source-name', 'Every page source')
  await page.click('#source-form button[type="submit"]')
  await page.locator('#mine-body tr').waitFor()
  t.ok(await page.locator('#fresh').isVisible(), 'the URL and the messages are shown')
  await sweep(t, page, 'sources')
})

t.test('Accounts page, with a second account and its risk settings shown', async (t) => {
  const page = admin.page
  await page.goto(`${publicUrl}/accounts.html`)
  await page.locator('#accounts-body tr[data-primary="true"]').waitFor()
  await page.fill('#account-name', 'Every page evaluation')
  await page.fill('#account-broker-id', 'EVERY-2')
  await page.selectOption('#cred-broker', 'paper')
  await page.fill('#cred-username', 'every-page')
  await page.fill('#cred-password', 'every-page-password')
  await page.click('#add-account')
  await page.locator('#add-message[data-kind="success"]').waitFor()
  // The first login links the primary; a second account under it is the one whose row says it cannot go live.
  await page.fill('#account-name', 'Every page funded')
  await page.fill('#account-broker-id', 'EVERY-3')
  await page.selectOption('#account-login', { index: 1 })
  await page.click('#add-account')
  await page.locator('#accounts-body tr', { hasText: 'Every page funded' }).waitFor()
  await page.getByRole('button', { name: 'Risk settings of Every page funded' }).click()
  await page.locator('#risk:not([hidden])').waitFor()
  t.equal(await page.locator('#accounts-body tr').count(), 2, 'the primary and the second account')
  await sweep(t, page, 'accounts')
})

t.test('no page complained', async (t) => {
  t.same(complaints, [])
})
