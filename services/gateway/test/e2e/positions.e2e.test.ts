// Issue 25, items 3, 5 and 7 for the Positions and Webhooks pages, in a real browser against the whole
// platform and the paper broker: without a broker session the Positions page says so plainly; a trader's
// webhooks show with what became of each (malformed JSON saying where it broke, an exit, a duplicate);
// with a session the page shows the position with its unrealized pnl on the contract's tick, the bracket's
// working orders, the broker's balance beside ours, the fills, and an alert's steps with their times.
// Both pages: axe-core at 1280 and 390 px, cards (no sideways scroll) at 390 px, screenshots kept.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { eventually } from '@signals/test-support'
import { startPlatform } from './platform.ts'
import { ARTIFACTS, DESKTOP, PHONE, screenshots, seriousViolations } from './page-checks.ts'

const TRADER_EMAIL = 'e2e-positions@example.com'
const PAPER = { name: 'trader0', password: 'paper-password', userId: 100, accountId: 9000, accountName: 'DEMO9000' }
const { publicUrl, complaints, newBrowser, signIn, broker } = await startPlatform(t, { adminEmail: TRADER_EMAIL, brokerAccounts: [PAPER], brokerCommission: '0.52' })
if (!broker) throw new Error('the paper broker did not start')

const { page } = await newBrowser()
await signIn(page, TRADER_EMAIL, { name: 'Positions Trader' })

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

async function postWebhook(body: string): Promise<number> {
  const response = await fetch(`${publicUrl}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body })
  return response.status
}

/** axe at desktop and phone width, nothing wider than the phone, and the screenshots. */
async function checkPage(t: Test, page: Page, name: string) {
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size)
    t.same(await seriousViolations(page), [], `${name} at ${size.width} px: no serious or critical axe violation`)
  }
  // Dark mode readable: axe's contrast rules with the dark palette.
  await page.emulateMedia({ colorScheme: 'dark' })
  t.same(await seriousViolations(page), [], `${name} in dark mode: no serious or critical axe violation`)
  await page.screenshot({ path: new URL(`${name}-phone-dark.png`, ARTIFACTS).pathname, fullPage: true })
  await page.emulateMedia({ colorScheme: 'light' })
  // What overflows, to name it when the page is wider than the phone.
  // (A string: these tests are type-checked without the DOM library.)
  const width = await page.evaluate<{ page: number; overflowing: string[] }>(`({
    page: document.documentElement.scrollWidth,
    overflowing: [...document.querySelectorAll('body *')]
      .filter((element) => !element.closest('thead') && element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX === 'visible')
      .map((element) => element.tagName.toLowerCase() + '#' + element.id + ': ' + (element.textContent ?? '').slice(0, 60)),
  })`)
  t.ok(width.page <= PHONE.width, `${name}: nothing scrolls sideways at ${PHONE.width} px (${width.page} px wide; ${width.overflowing.join(' | ') || 'nothing overflows'})`)
  await screenshots(page, name)
}

const me = await call('GET', '/auth/me')
const userId = (me.json.user as { userId: string }).userId

t.test('without a broker session the Positions page says so plainly', async (t) => {
  await page.goto(`${publicUrl}/broker.html`)
  const state = page.locator('#session-state[data-state="no_session"]')
  await state.waitFor()
  t.match(await state.textContent(), /^Your broker session is not open, so the broker cannot be asked now/)
  t.equal(await page.locator('#positions-empty').textContent(), 'Not known: the broker session is not open.')
  t.equal(await page.locator('#fact-broker-balance').textContent(), 'not known')
  t.match(await page.locator('#fact-our-balance').textContent(), /^\$[\d,]+\.\d\d$/, 'our own balance is known without the broker')
  await checkPage(t, page, 'positions-no-session')
})

t.test("the trader's webhooks: a malformed one says where it broke, an exit, a duplicate", async (t) => {
  t.equal(await postWebhook(`{"user_id":"${userId}","action":"buy" "symbol":"MNQ1!"}`), 400)
  const exit = JSON.stringify({ action: 'exit', symbol: 'MNQ1!', user_id: userId, id: 'exit-1' })
  t.equal(await postWebhook(exit), 200)
  t.equal(await postWebhook(exit), 200, 'a repeat is answered as a duplicate')
  await page.goto(`${publicUrl}/webhooks.html`)
  // The intake log reaches the admin service through the bus: the page shows what has arrived.
  await eventually(
    async () => {
      await page.reload()
      return (await page.locator('#intake-body tr').count()) >= 3
    },
    { timeoutMs: 20_000, intervalMs: 500, what: 'three webhooks on the page' },
  )
  const refused = page.locator('#intake-body tr[data-outcome="refused"]')
  t.match(await refused.textContent(), /Refused: Malformed JSON at line 1, column \d+: expected ',' or '}' after a property value/)
  t.match(await page.locator('#intake-body tr[data-outcome="duplicate"]').textContent(), /Exit or result.*Duplicate: this alert was already received/s)
  t.equal(await page.locator('#intake-body tr[data-outcome="accepted"][data-kind="result"]').count(), 1, 'the exit shows, as an exit')
  t.match(await page.locator('#intake-body tr').first().locator('td').first().textContent(), /\d\d:\d\d:\d\d .+ · ([A-Z][a-z]{2} \d{1,2}, )?\d\d:\d\d CT/, "the trader's time with Chicago's beside")

  await page.selectOption('#intake-show', 'refused')
  await eventually(async () => (await page.locator('#intake-body tr').count()) === 1)
  t.equal(await page.locator('#intake-body tr[data-outcome="refused"]').count(), 1, 'the Refused filter shows the refusal only')
  await refused.locator('summary').click()
  t.match(await refused.locator('pre').textContent(), /"action":"buy" "symbol"/, 'what was sent, to find the break')
  await checkPage(t, page, 'webhooks')
})

t.test('with a session: the position with unrealized pnl on the tick, orders, balances, fills and an alert\u2019s steps', async (t) => {
  const saved = await call('PUT', '/api/broker-credentials', { broker: 'paper', environment: 'demo', accountId: PAPER.accountName, username: PAPER.name, password: PAPER.password })
  t.equal(saved.status, 200, 'credentials saved')
  const live = await call('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } })
  t.equal(live.status, 200, 'live trading and automatic placement on')
  broker.setPrice('MNQZ6', '21000')
  await eventually(async () => (await call('GET', '/api/broker/positions')).json.state === 'live', { timeoutMs: 30_000, intervalMs: 250, what: 'the broker session' })
  t.equal(await postWebhook(JSON.stringify({ action: 'buy', symbol: 'MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, user_id: userId })), 200)
  await eventually(() => broker.positions().some((position) => position.accountId === PAPER.accountId && position.netPos === 5), { timeoutMs: 30_000, what: 'the fill at the broker' })
  broker.setPrice('MNQZ6', '21010.25')

  await page.goto(`${publicUrl}/broker.html`)
  await page.locator('#session-state[data-state="live"]').waitFor()
  const position = page.locator('#positions-body tr')
  await eventually(async () => {
    await page.click('#refresh')
    return /\$102\.50/.test((await position.textContent()) ?? '')
  }, { timeoutMs: 20_000, intervalMs: 500, what: 'the position marked at 21010.25' })
  const cells = await position.locator('td').allTextContents()
  t.same(cells.slice(0, 3), ['MNQZ6', 'LONG', '5'])
  t.equal(cells[3], '21000.00', "the average price on MNQ's 0.25 tick")
  t.equal(cells[5], '$102.50', '5 contracts × 10.25 points × $2')
  t.equal(cells[6], '5 of 5 covered', "the bracket's stop covers the whole position")
  t.match(cells[7], /^Signals \(trade \d+\)$/)
  t.equal(await position.locator('td[data-sign="positive"]').count(), 1)
  t.equal(await page.locator('#working-body tr').count(), 2, "the bracket's stop and target are working")
  t.match(await page.locator('#working-body').textContent(), /stop 20950\.00/)
  t.match(await page.locator('#fact-broker-balance').textContent(), /^\$[\d,]+\.\d\d$/, "the broker's balance")
  t.match(await page.locator('#fact-our-balance').textContent(), /^\$[\d,]+\.\d\d$/, 'ours beside it')
  t.ok((await page.locator('#fills-body tr').count()) >= 1, 'the entry fill is in the history')
  t.match(await page.locator('#fills-body tr').first().textContent(), /MNQZ6.*Buy.*5.*21000\.00/s)
  t.equal(await page.locator('#fills-body tr').first().locator('td[data-label="Commission"]').textContent(), '$2.60', "the fill's commission as the broker charged it: 5 × $0.52")
  t.match(await page.locator('#commissions').textContent(), /Commissions and fees of these fills: \$2\.60/)
  const cost = page.locator('#trade-costs-body tr')
  t.same(await cost.locator('td').allTextContents().then((texts) => texts.slice(1)), ['MNQZ6', 'LONG 5', 'open', '$2.60', 'open'], "the open trade's commission so far: its entry fill's")

  await page.locator('#recent-body tr').first().getByRole('button', { name: /Steps of the LONG MNQ1! alert/ }).click()
  await page.locator('#steps').waitFor()
  t.match(await page.locator('#steps-heading').textContent(), /^Steps of the LONG MNQ1! alert received .+: placed now$/)
  const steps = await Promise.all((await page.locator('#steps-list li').all()).map((item) => item.getAttribute('data-step')))
  const times = await Promise.all((await page.locator('#steps-list li time').all()).map(async (item) => Date.parse((await item.getAttribute('datetime')) ?? '')))
  t.same(times, [...times].sort((a, b) => a - b), 'in the order they happened (a fill may be heard before the order is accepted)')
  for (const step of ['received', 'sent', 'accepted', 'filled']) t.ok(steps.includes(step), `the ${step} step`)
  t.match(await page.locator('#steps-list li[data-step="filled"]').textContent(), /Filled.*\d\d:\d\d:\d\d.*CT.*entry filled: LONG 5 at 21000/s)
  await checkPage(t, page, 'positions-live')
})

t.test("a closed trade: its commission and its PnL before and after commissions, labelled", async (t) => {
  broker.setPrice('MNQZ6', '21100')
  const cost = page.locator('#trade-costs-body tr')
  await eventually(async () => {
    await page.click('#refresh')
    return /\$994\.80/.test((await cost.textContent()) ?? '')
  }, { timeoutMs: 20_000, intervalMs: 500, what: 'the trade closed at its target, net of commissions' })
  const texts = await cost.locator('td').allTextContents()
  t.same(texts.slice(1), ['MNQZ6', 'LONG 5', '$1,000.00', '$5.20', '$994.80'], '5 × 50 points × $2 before; entry and target fills 2 × $2.60; net')
  t.same(await Promise.all((await cost.locator('td').all()).map((cell) => cell.getAttribute('data-label'))), ['Trade', 'Contract', 'Side', 'PnL before commissions', 'Commission', 'Net PnL'], 'each figure labelled on a phone card')
  t.match(await page.locator('#commissions').textContent(), /\$5\.20/, 'both fills counted')
})

t.test('no page complained', async (t) => {
  t.same(complaints, [])
})
