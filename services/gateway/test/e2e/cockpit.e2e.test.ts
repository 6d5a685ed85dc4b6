// Issue 25, items 2 and 4, in a real browser against the whole platform and the paper broker, no scripted
// answers: the broker's refusal of a saved login is shown on save, on "Test connection" and in the
// indicator; the live and auto-place switches act at once from the status card (an invalid risk field in
// the settings form does not block them); switching live off with an open trade warns; the kill switch asks
// first, then flattens and cancels at the broker and leaves auto-place off.
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { eventually } from '@signals/test-support'
import { at, startPlatform } from './platform.ts'
import { ARTIFACTS, screenshots, seriousViolations } from './page-checks.ts'

const TRADER_EMAIL = 'e2e-cockpit@example.com'
const PAPER = { name: 'trader0', password: 'paper-password', userId: 100, accountId: 9000, accountName: 'DEMO9000' }
const { publicUrl, complaints, newBrowser, signIn, broker } = await startPlatform(t, { adminEmail: TRADER_EMAIL, brokerAccounts: [PAPER] })
if (!broker) throw new Error('the paper broker did not start')

const { page } = await newBrowser()
await signIn(page, TRADER_EMAIL, { name: 'Cockpit Trader' })
t.equal(at(page), `${publicUrl}/`, 'signed in and home')

async function checkPage(t: Test, page: Page, name: string) {
  t.same(await seriousViolations(page), [], `${name}: no serious or critical axe violation`)
  await screenshots(page, name)
}

async function saveCredentials(password: string) {
  await page.selectOption('#cred-broker', 'paper')
  await page.fill('#cred-account', PAPER.accountName)
  await page.fill('#cred-username', PAPER.name)
  await page.fill('#cred-password', password)
  await page.click('#save-credentials')
}

const indicator = () => page.locator('#indicator').getAttribute('data-color')
const netPosition = () => broker.positions().find((position) => position.accountId === PAPER.accountId)?.netPos ?? 0

t.test('a refused login is shown on save, on Test connection and in the indicator, never green', async (t) => {
  await page.locator('#save-settings:not([disabled])').waitFor()
  await saveCredentials('not-the-password')
  const saved = page.locator('#credentials-message', { hasText: 'Credentials saved, but the login failed' })
  await saved.waitFor()
  t.match(await saved.textContent(), /The broker refused the login: /, "the broker's words on save")

  await page.click('#test-credentials')
  await page.locator('#credentials-message', { hasText: 'Trying the login' }).waitFor({ state: 'detached' }).catch(() => undefined)
  await page.locator('#credentials-message[data-kind="error"]', { hasText: 'The broker refused the login' }).waitFor()
  t.pass('Test connection shows the refusal')

  // One click on the status card's switches, no "Save settings".
  await page.check('#switch-live')
  await page.check('#switch-auto-place')
  const detail = page.locator('#indicator-detail', { hasText: 'The broker connection failed' })
  await detail.waitFor({ timeout: 20_000 })
  t.match(await detail.textContent(), /The broker connection failed: .+/, "the indicator says what the broker said")
  t.not(await indicator(), 'green', 'never green while the broker refuses')
  await page.locator('#indicator').scrollIntoViewIfNeeded()
  await page.screenshot({ path: new URL('cockpit-login-refused-viewport.png', ARTIFACTS).pathname })
  t.equal(await page.locator('#indicator-label').textContent(), (await indicator()) === 'red' ? 'Broker connection failing' : 'Needs attention')
  await checkPage(t, page, 'cockpit-login-refused')
})

t.test('the right password: accepted on save, the feed connects, green', async (t) => {
  await saveCredentials(PAPER.password)
  await page.locator('#credentials-message', { hasText: 'Credentials saved. The broker accepted the login: account DEMO9000.' }).waitFor()
  await page.click('#test-credentials')
  await page.locator('#credentials-message[data-kind="success"]', { hasText: 'The broker accepted the login: account DEMO9000.' }).waitFor()
  await page.locator('#indicator[data-color="green"]').waitFor({ timeout: 30_000 })
  t.pass('green once the broker accepted the login')
})

t.test('an invalid risk field does not block switching auto-place off; switching live off with an open trade warns', async (t) => {
  await page.fill('#risk-engine-limits-maxRiskPerTradePercent', '')
  await page.uncheck('#switch-auto-place')
  await page.locator('#switch-message', { hasText: 'Automatic order placement is off.' }).waitFor()
  await page.locator('#indicator[data-color="yellow"]').waitFor()
  t.notOk(await page.isChecked('#live-auto-place'), 'the settings form follows the switch')
  await page.check('#switch-auto-place')
  await page.locator('#indicator[data-color="green"]').waitFor()

  broker.setPrice('MNQZ6', '21000')
  await page.locator('#status-connection', { hasText: 'connected' }).waitFor({ timeout: 30_000 })
  const response = await fetch(`${publicUrl}/webhook/alert`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'buy', symbol: 'MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, user_id: 'tv-owner' }),
  })
  t.ok(response.status < 300, `webhook accepted (${response.status})`)
  const open = page.locator('#trades-body tr[data-status="open"]')
  await open.waitFor({ timeout: 30_000 })
  await page.locator('#status-trades', { hasText: '1' }).waitFor()
  t.equal(await open.getByRole('button', { name: /Close the LONG MNQZ6 trade/ }).count(), 1, 'the open trade has its Close button')

  await page.uncheck('#switch-live')
  const warning = page.locator('#live-off-dialog')
  await warning.waitFor()
  t.match(await page.locator('#live-off-text').textContent(), /You have 1 open trade\(s\)/)
  await checkPage(t, page, 'cockpit-live-off-warning')
  await page.click('#live-off-cancel')
  t.ok(await page.isChecked('#switch-live'), 'kept on when the trader says so')
  t.equal(netPosition(), 5, 'the trade is held at the broker')
})

t.test('the kill switch asks first, then flattens at the broker and leaves auto-place off', async (t) => {
  await page.click('#kill-switch')
  await page.locator('#kill-dialog').waitFor()
  await checkPage(t, page, 'cockpit-kill-confirm')
  // The dialog as the trader sees it (the full-page shots above are too tall to read it in).
  await page.screenshot({ path: new URL('cockpit-kill-confirm-viewport.png', ARTIFACTS).pathname })
  await page.click('#kill-cancel')
  t.equal(netPosition(), 5, 'nothing happened on cancel')
  t.ok(await page.isChecked('#switch-auto-place'))

  await page.click('#kill-switch')
  await page.click('#kill-confirm')
  const said = page.locator('#switch-message', { hasText: 'Kill switch done' })
  await said.waitFor({ timeout: 30_000 })
  t.match(await said.textContent(), /Automatic order placement is off\./)
  await eventually(() => netPosition() === 0)
  t.equal(broker.orders().filter((order) => order.accountId === PAPER.accountId && ['Working', 'Suspended', 'PendingNew'].includes(order.ordStatus)).length, 0, 'no working order left')
  await page.locator('#trades-body tr[data-status="closed"]').waitFor({ timeout: 30_000 })
  t.notOk(await page.isChecked('#switch-auto-place'), 'auto-place is off')
  await page.reload()
  await page.locator('#indicator[data-color="yellow"]').waitFor()
  t.notOk(await page.isChecked('#switch-auto-place'), 'and stays off after a reload')
  const recorded = page.locator('#kill-last', { hasText: 'Kill switch last used' })
  await recorded.waitFor()
  t.match(await recorded.textContent(), /\(done\): exits sent for your open trades in 1 contract\(s\)/, 'the use is recorded and shown')
  await checkPage(t, page, 'cockpit-after-kill')
})

t.test('no page complained', async (t) => {
  t.same(complaints, [])
})
