// Issue 22's Signal sources page in a real browser against the whole platform: a trader makes a source, copies
// its URL (shown once) with the Copy button, pastes the page's recommended message as TradingView would fire
// it, and the alert arrives (the Webhooks page lists it accepted); rotating refuses the old URL (401, as
// ingest says) and the new one works; deleting refuses it too. The operator's source can be subscribed to and
// left; the API's 4xx words are shown. axe at 1280 and 390 px, nothing wider than the phone, screenshots.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { eventually } from '@signals/test-support'
import { startPlatform } from './platform.ts'
import { DESKTOP, PHONE, screenshots, seriousViolations } from './page-checks.ts'

const TRADER_EMAIL = 'e2e-sources@example.com'
const { publicUrl, complaints, newBrowser, signIn } = await startPlatform(t, { adminEmail: TRADER_EMAIL })

const { context, page } = await newBrowser()
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: publicUrl })
await signIn(page, TRADER_EMAIL, { name: 'Sources Trader' })

/** A same-origin JSON call from the page, as the pages make them (the session cookie rides along). */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) })
      return { status: response.status, json: (await response.json()) as Record<string, unknown> }
    },
    { method, path, body },
  )
}

/** What TradingView puts in place of the message's placeholders when the alert fires. */
const FIRED: Record<string, string> = { 'strategy.order.action': 'buy', ticker: 'MNQ1!', close: '21000', plot_0: '20950', plot_1: '21100' }
const fire = (message: string) => message.replace(/\{\{([^{}]*)\}\}/g, (placeholder, name: string) => FIRED[name] ?? placeholder)

/** A webhook from outside, as TradingView sends it (no cookie). */
async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: response.status, text: await response.text() }
}

/** The URL key reaches ingest through the settings relay (kicked at once): wait until ingest answers `status`. */
async function eventuallyAnswers(url: string, body: string, status: number, what: string): Promise<{ status: number; text: string }> {
  let last = { status: 0, text: '' }
  await eventually(async () => (last = await post(url, body)).status === status, { timeoutMs: 20_000, intervalMs: 250, what })
  return last
}

/** axe at desktop and phone width, nothing wider than the phone, and the screenshots. */
async function checkPage(t: Test, page: Page, name: string) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size)
    t.same(await seriousViolations(page), [], `${name} at ${size.width} px: no serious or critical axe violation`)
  }
  const width = await page.evaluate<number>('document.documentElement.scrollWidth')
  t.ok(width <= PHONE.width, `${name}: nothing scrolls sideways at ${PHONE.width} px (${width} px wide)`)
  await screenshots(page, name)
}

const operator = await call('POST', '/api/admin/signal-sources', { name: 'House signals' })
t.equal(operator.status, 200, 'the administrator made an operator source')

let firstUrl = ''

t.test('making a source: the API refusal is shown; the URL is shown once, copied, and the alert arrives', async (t) => {
  await page.goto(`${publicUrl}/sources.html`)
  const houseRow = page.locator('#operator-body tr', { hasText: 'House signals' })
  await houseRow.waitFor()
  t.equal(await page.locator('#mine-empty').isVisible(), true, 'no source of my own yet')
  t.match(await houseRow.textContent(), /House signals.*No/s, 'the operator source, not subscribed')
  // The spec's route is the default operator source, every trader subscribed unless they opt out.
  t.match(await page.locator('#operator-body tr[data-source-id="00000000-0000-0000-0000-000000000000"]').textContent(), /Default.*Yes/s, 'the default source, subscribed')

  await page.fill('#source-name', '   ')
  await page.click('#source-form button[type="submit"]')
  await page.locator('#source-message[data-kind="error"]').waitFor()
  t.match(await page.locator('#source-message').textContent(), /^Not made: Invalid signal source: .*name/, "the service's 400 in words")

  await page.fill('#source-name', 'MNQ breakout')
  await page.click('#source-form button[type="submit"]')
  await page.locator('#fresh').waitFor()
  firstUrl = (await page.locator('#fresh-url').textContent()) ?? ''
  t.match(firstUrl, new RegExp(`^${publicUrl}/webhook/s/[A-Za-z0-9_-]{43}$`), 'the full URL with its token')
  await page.click('#copy-fresh-url')
  // The clipboard write is asynchronous: the button says "Copied" once it is done.
  await page.locator('#copy-fresh-url').filter({ hasText: /^Copied$/ }).waitFor({ timeout: 5_000 })
  t.equal(await page.evaluate<string>('navigator.clipboard.readText()'), firstUrl, 'the Copy button put the URL on the clipboard')
  t.match(await page.locator('#mine-body tr').textContent(), /MNQ breakout.*\/webhook\/s\/….*Yes/s, 'listed with the URL hidden, subscribed')
  t.notMatch(await page.locator('#mine-body').textContent(), new RegExp(firstUrl.split('/').pop() ?? 'none'), 'the token is not in the list')
  t.match(await page.locator('#subscriptions-body').textContent(), /MNQ breakout.*You.*By your risk settings/s, 'its subscription with its size rule')
  t.equal(await page.locator('#fresh-templates .template').count(), 4, 'JSON, JSON in message, label lines, the result alert')

  const message = (await page.locator('#fresh-json').textContent()) ?? ''
  t.match(message, /"sl": "\{\{plot_0\}\}"/, 'the recommended message with its stop')
  t.notMatch(message, /user_id|secret/, 'no user_id and no secret: the URL says who')
  t.match(await page.locator('#fresh-result').textContent(), /"result": "Exit"/, 'the result alert')
  const accepted = await eventuallyAnswers(firstUrl, fire(message), 200, 'the new URL accepted by ingest')
  t.match(accepted.text, /"alertId"/)
  await checkPage(t, page, 'sources-made')

  await page.goto(`${publicUrl}/webhooks.html`)
  await eventually(
    async () => {
      await page.reload()
      return (await page.locator('#intake-body tr[data-outcome="accepted"][data-kind="entry"]').count()) === 1
    },
    { timeoutMs: 20_000, intervalMs: 500, what: "the source's alert in the trader's webhooks" },
  )
  await page.locator('#intake-body tr[data-kind="entry"] summary').click()
  t.match(await page.locator('#intake-body tr[data-kind="entry"] pre').textContent(), /"entryPrice": "21000"/, 'the alert that was posted to the URL')
})

t.test('rotating: confirmed, the new URL shown once; the old one refused as ingest says', async (t) => {
  await page.goto(`${publicUrl}/sources.html`)
  await page.getByRole('button', { name: 'Rotate the URL of MNQ breakout' }).click()
  t.match(await page.locator('#rotate-text').textContent(), /old URL stops working/)
  await page.click('#rotate-cancel')
  t.equal(await page.locator('#fresh').isVisible(), false, 'kept: nothing rotated')
  await page.getByRole('button', { name: 'Rotate the URL of MNQ breakout' }).click()
  await page.click('#rotate-confirm')
  await page.locator('#fresh').waitFor()
  const newUrl = (await page.locator('#fresh-url').textContent()) ?? ''
  t.match(newUrl, new RegExp(`^${publicUrl}/webhook/s/[A-Za-z0-9_-]{43}$`))
  t.not(newUrl, firstUrl, 'a new URL')
  t.match(await page.locator('#fresh-title').textContent(), /^The new URL of MNQ breakout$/)
  const body = fire((await page.locator('#fresh-json').textContent()) ?? '')
  const refused = await eventuallyAnswers(firstUrl, body, 401, 'the old URL refused')
  t.match(refused.text, /Unknown or revoked signal source URL/, "ingest's words")
  await eventuallyAnswers(newUrl, body.replace('21000', '21001'), 200, 'the new URL accepted')

  await page.getByRole('button', { name: 'Delete MNQ breakout' }).click()
  await page.click('#delete-confirm')
  await page.locator('#mine-empty').waitFor()
  t.equal(await page.locator('#fresh').isVisible(), false, "the deleted source's URL is no longer shown")
  t.match(await page.locator('#action-message').textContent(), /MNQ breakout is deleted/)
  await eventuallyAnswers(newUrl, body.replace('21000', '21002'), 401, 'the deleted URL refused')
})

t.test("the operator's source: subscribe and leave, the size rule listed", async (t) => {
  await page.getByRole('button', { name: 'Subscribe to House signals' }).click()
  await page.getByRole('button', { name: 'Unsubscribe from House signals' }).waitFor()
  t.match(await page.locator('#subscriptions-body').textContent(), /House signals.*The operator.*By your risk settings/s)
  t.match(await page.locator('#subscriptions-body tr[data-source-id="00000000-0000-0000-0000-000000000000"]').textContent(), /Always by your risk settings/, 'the default source has no size choice')
  // Sized as the alert's quantity times a multiplier: the field appears with that choice; a bad value is the API's 400 in words.
  await page.getByRole('combobox', { name: 'Size rule of House signals' }).selectOption('multiplier')
  const factor = page.getByRole('spinbutton', { name: 'Multiplier of House signals' })
  await factor.fill('1.5')
  await page.getByRole('button', { name: 'Save the size rule of House signals' }).click()
  await page.locator('#subscriptions-body tr', { hasText: "The alert's quantity × 1.5" }).waitFor()
  t.match(await page.locator('#action-message').textContent(), /House signals's entries are sized as the alert's quantity × 1\.5, within your risk limits/)
  const listed = await call('GET', '/api/signal-sources')
  t.same((listed.json.sources as { name: string; subscriptions: unknown }[]).find((source) => source.name === 'House signals')?.subscriptions, [{ sizeRule: 'multiplier', multiplier: 1.5 }], 'saved')
  t.equal(await page.getByRole('spinbutton', { name: 'Multiplier of House signals' }).inputValue(), '1.5', 'the editor shows the saved multiplier')
  await checkPage(t, page, 'sources-subscribed')
  await page.getByRole('combobox', { name: 'Size rule of House signals' }).selectOption('account')
  t.equal(await page.getByRole('spinbutton', { name: 'Multiplier of House signals' }).isVisible(), false, 'no multiplier for the risk settings')
  await page.getByRole('button', { name: 'Save the size rule of House signals' }).click()
  await page.locator('#subscriptions-body tr', { hasText: 'House signals' }).filter({ hasText: 'By your risk settings' }).waitFor()
  await page.getByRole('button', { name: 'Unsubscribe from House signals' }).click()
  await page.locator('#subscriptions-body tr', { hasText: 'House signals' }).waitFor({ state: 'detached' })
  t.match(await page.locator('#action-message').textContent(), /no longer subscribe to House signals/)
})

t.test('the home page points to the sources and asks for no secret', async (t) => {
  await page.goto(`${publicUrl}/`)
  await page.locator('#setup-user-id').filter({ hasNotText: '–' }).waitFor()
  t.match(await page.locator('#setup-where').textContent(), /Signal sources/)
  t.equal(await page.locator('#setup-where a').getAttribute('href'), '/sources.html')
  t.notMatch(await page.locator('main').textContent(), /YOUR_WEBHOOK_SECRET|webhook secret/i, 'nothing asks for the shared secret')
})

t.test('no page complained', async (t) => {
  t.same(complaints, [])
})
