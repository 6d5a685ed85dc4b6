// Issue 25, item 9, in a real browser against the whole platform with a low sign-in limit of its own:
// pages reading `/auth/me` (the pending page, the home page) are not sign-in attempts, so a trader who
// reloads them past the limit stays signed in and keeps every sign-in of the budget; and a person who goes
// past the limit on the sign-in link gets a page saying to wait and for how long, not bare JSON.
import t from 'tap'
import type { Page } from 'playwright-core'
import { at, startPlatform } from './platform.ts'
import { DESKTOP, PHONE, screenshots, seriousViolations } from './page-checks.ts'

const ADMIN_EMAIL = 'e2e-limit-admin@example.com'
const TRADER_EMAIL = 'e2e-limit-trader@example.com'
/** Sign-in requests per minute per client: the two sign-ins below (two requests each) and one more. */
const LIMIT = 5

const { publicUrl, complaints, newBrowser, signIn } = await startPlatform(t, { adminEmail: ADMIN_EMAIL, authRateLimit: LIMIT })

/** Counts the page's requests to `/auth/me` from now on. */
function countWhoAmI(page: Page): () => number {
  let calls = 0
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/auth/me') calls++
  })
  return () => calls
}

const admin = await newBrowser()
const trader = await newBrowser()
await signIn(admin.page, ADMIN_EMAIL)
await signIn(trader.page, TRADER_EMAIL, { name: 'Limit Trader' })
const whoAmICalls = countWhoAmI(trader.page)

t.test('reloading the pending page past the sign-in limit keeps the trader signed in', async (t) => {
  t.equal(at(trader.page), `${publicUrl}/pending-approval.html`, 'the new trader waits for approval')
  // One read of /auth/me per load (the page's poll every 3 s would take too long).
  for (let load = 0; whoAmICalls() <= LIMIT && load <= LIMIT; load++) {
    await trader.page.reload()
    await trader.page.locator('#who', { hasText: `Signed in as ${TRADER_EMAIL}.` }).waitFor()
  }
  t.ok(whoAmICalls() > LIMIT, `${whoAmICalls()} reads of /auth/me, more than the ${LIMIT} sign-ins allowed`)
  t.equal(at(trader.page), `${publicUrl}/pending-approval.html`, 'still signed in, still waiting')
})

t.test('once approved, the home page loads again and again past the limit and keeps working', async (t) => {
  const approved = await admin.page.evaluate(async (email) => {
    const list = (await (await fetch('/api/admin/users?status=pending')).json()) as { users: { userId: string; email: string }[] }
    const user = list.users.find((candidate) => candidate.email === email)
    return user ? (await fetch(`/api/admin/users/${user.userId}/approve`, { method: 'POST' })).status : 0
  }, TRADER_EMAIL)
  t.equal(approved, 200, 'the administrator approved the trader')

  const before = whoAmICalls()
  // Two reads of /auth/me per load.
  for (let load = 0; whoAmICalls() - before <= LIMIT && load <= LIMIT; load++) {
    await trader.page.goto(`${publicUrl}/`)
    await trader.page.locator('#who-name', { hasText: `Limit Trader (${TRADER_EMAIL})` }).waitFor()
  }
  t.ok(whoAmICalls() - before > LIMIT, `${whoAmICalls() - before} more reads of /auth/me from the home page`)
  t.equal(at(trader.page), `${publicUrl}/`, 'still on the home page')
  t.equal(await trader.page.isVisible('#page-error'), false, 'no "Could not load your profile"')
  const me = await trader.page.evaluate(async () => (await fetch('/auth/me')).status)
  t.equal(me, 200, '/auth/me still answers')
})

t.test('the sign-in budget was untouched by all of that; past it, a person gets a page saying to wait', async (t) => {
  const { page } = await newBrowser()
  await page.goto(`${publicUrl}/login.html`)
  // Four sign-in requests so far (two sign-ins): the fifth, the last of the budget, still reaches the provider.
  await page.click('#sign-in')
  await page.waitForURL((url) => url.origin !== publicUrl)
  t.pass('the last sign-in of the budget reached the provider')

  await page.goto(`${publicUrl}/login.html`)
  const refused = page.waitForResponse((response) => new URL(response.url()).pathname === '/auth/google')
  await page.click('#sign-in')
  const response = await refused
  await page.waitForLoadState('load')
  t.equal(response.status(), 429, 'Too Many Requests')
  t.match(response.headers()['content-type'], /^text\/html/, 'an HTML page')
  const seconds = Number(response.headers()['retry-after'])
  t.ok(seconds > 0 && seconds <= 60, `Retry-After: ${seconds}`)
  t.equal(at(page), `${publicUrl}/auth/google`, 'the page is the answer to the sign-in link')
  t.equal((await page.locator('h1').textContent())?.trim(), 'Too many sign-in attempts', 'a heading')
  const body = (await page.locator('main').innerText()).trim()
  t.match(body, new RegExp(`Please try again in ${seconds} seconds?\\.`), 'a sentence saying to wait, and how long')
  t.notMatch(body, /"success"|\{/, 'no JSON in sight')
  t.equal(await page.getByRole('link', { name: 'Back to sign-in' }).getAttribute('href'), '/login.html', 'a way back')

  for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(size)
    t.same(await seriousViolations(page), [], `${label} (${size.width} px): no serious or critical axe violation`)
  }
  await screenshots(page, 'sign-in-rate-limited')

  // That page is a 429 by design: not a complaint about the pages.
  const refusal = complaints.findIndex((entry) => entry.startsWith('429 for ') && entry.includes('/auth/google'))
  t.not(refusal, -1, 'the refusal was a 429')
  complaints.splice(refusal, 1)
})

t.test('with sign-in refused, the signed-in trader still reads their home page', async (t) => {
  await trader.page.reload()
  await trader.page.locator('#who-name', { hasText: `Limit Trader (${TRADER_EMAIL})` }).waitFor()
  t.equal(await trader.page.isVisible('#page-error'), false, 'no "Too many sign-in requests" on the page')
})

t.test('no page broke the Content-Security-Policy, threw, or missed a file', async (t) => {
  t.same(complaints, [])
})
