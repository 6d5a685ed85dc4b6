// Issue 25, item 8 in a real browser against the whole platform: a trader adds an e-mail channel from the
// home page's Notifications card, chooses what it is told about, and "Send a test" reaches a real SMTP server
// on this machine (smtp-server, the settings service's own test peer). The card passes axe at desktop and
// phone width, in light and dark. The senders and the bus path are settings' tests (test/notifications/).
import t from 'tap'
import { eventually } from '@signals/test-support'
import { startPlatform } from './platform.ts'
import { DESKTOP, PHONE, screenshots, seriousViolations } from './page-checks.ts'
import { startSmtpPeer } from '../../../settings/test/notifications/peers.ts'

const TRADER_EMAIL = 'e2e-notify@example.com'
const { publicUrl, complaints, newBrowser, signIn } = await startPlatform(t, { adminEmail: TRADER_EMAIL })
const smtp = await startSmtpPeer(t, null)
const { page } = await newBrowser()
await signIn(page, TRADER_EMAIL, { name: 'Notify Trader' })

t.test('an e-mail channel added from the card; its test reaches a real SMTP server', async (t) => {
  await page.goto(`${publicUrl}/`)
  await page.locator('#notify-events input').first().waitFor()
  await page.selectOption('#notify-kind', 'email')
  await page.fill('#notify-name', 'My inbox')
  await page.fill('#notify-smtp-host', '127.0.0.1')
  await page.fill('#notify-smtp-port', String(smtp.port))
  await page.fill('#notify-from', 'signals@example.com')
  await page.fill('#notify-to', 'trader@example.com')
  // Every event but fills is ticked by default; the trader adds fills too.
  await page.check('#notify-events input[value="fill"]')
  await page.click('#notify-form button[type="submit"]')
  await page.locator('#notify-message', { hasText: 'Channel added.' }).waitFor()
  const channel = page.locator('#notify-channels li', { hasText: 'My inbox' })
  await channel.waitFor()
  t.match(await channel.textContent(), /Order refused.*Fill.*Trade closed.*Daily loss reached.*Broker login failed.*Feed down.*Kill switch/s, 'the channel lists every event it is told about')

  await channel.getByRole('button', { name: 'Send a test' }).click()
  await page.locator('#notify-message', { hasText: 'Test sent on My inbox.' }).waitFor({ timeout: 20_000 })
  await eventually(() => smtp.mails.length === 1, { timeoutMs: 10_000, what: 'the test e-mail at the SMTP server' })
  t.same(smtp.mails[0]?.to, ['trader@example.com'], 'to the address given')
  t.equal(smtp.mails[0]?.from, 'signals@example.com')
  t.match(smtp.mails[0]?.raw, /test/i, 'a test message')

  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size)
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      t.same(await seriousViolations(page), [], `notifications at ${size.width} px, ${scheme}: no serious or critical axe violation`)
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.locator('#notify-title').scrollIntoViewIfNeeded()
  await screenshots(page, 'notifications')
})

t.test('no page complained', async (t) => {
  t.same(complaints, [])
})
