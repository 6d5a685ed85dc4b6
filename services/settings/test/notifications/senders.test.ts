import t from 'tap'
import { freePort } from '@signals/test-support'
import { sendEmail } from '../../src/notifications/senders/email.ts'
import { sendTelegram } from '../../src/notifications/senders/telegram.ts'
import { sendDiscord } from '../../src/notifications/senders/discord.ts'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, sendSignedWebhook, webhookSignature } from '../../src/notifications/senders/signed-webhook.ts'
import { startHttpPeer, startSmtpPeer, telegramAnswer } from './peers.ts'

const message = { eventId: 'order_refused:alert:7', kind: 'order_refused', title: 'Order refused: buy NQZ6', text: 'Daily loss limit reached.', occurredAt: '2026-11-26T15:00:00.000Z' }
const env = (telegramApiUrl = 'http://127.0.0.1:1') => ({ telegramApiUrl, timeoutMs: 3_000 })

t.test('e-mail goes through a real SMTP server with the login, and a wrong password is a failure naming the server answer', async (t) => {
  const smtp = await startSmtpPeer(t, { username: 'trader', password: 's3cret-pass' })
  const settings = { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpTls: false, smtpUsername: 'trader', from: 'signals@example.com', to: 'me@example.com' }
  t.same(await sendEmail(env(), settings, 's3cret-pass', message), { ok: true })
  t.equal(smtp.mails.length, 1)
  t.same(smtp.mails[0]?.to, ['me@example.com'])
  t.equal(smtp.mails[0]?.user, 'trader', 'logged in')
  t.match(smtp.mails[0]?.raw, /Subject: Order refused: buy NQZ6/)
  t.match(smtp.mails[0]?.raw, /Daily loss limit reached\./)

  const refused = await sendEmail(env(), settings, 'wrong', message)
  t.equal(refused.ok, false)
  if (!refused.ok) {
    t.match(refused.error, /535|EAUTH/, 'says the login was refused')
    t.notMatch(refused.error, /wrong/, 'never the password')
  }
  t.equal(smtp.mails.length, 1, 'nothing more delivered')
})

t.test('Telegram: the Bot API sendMessage shape; a refused token is a failure without the token', async (t) => {
  const token = '123456:ABC-def_ghi'
  const telegram = await startHttpPeer(t, telegramAnswer(token))
  t.same(await sendTelegram(env(telegram.url), '-100200300', token, message), { ok: true })
  const body = JSON.parse(telegram.requests[0]?.body ?? '{}') as Record<string, unknown>
  t.equal(body.chat_id, '-100200300')
  t.match(body.text, /^Order refused: buy NQZ6\n\nDaily loss limit reached\.$/)

  const refused = await sendTelegram(env(telegram.url), '-100200300', '999:WRONG', message)
  t.same(refused, { ok: false, error: 'Telegram answered 401: Unauthorized' })
  const malformed = await sendTelegram(env(telegram.url), '1', 'not a token', message)
  t.equal(malformed.ok, false, 'a malformed token is not sent at all')
  t.equal(telegram.requests.length, 2)
})

t.test('Discord: POST {content}; 204 is taken, a 429 is a failure', async (t) => {
  let limited = false
  const discord = await startHttpPeer(t, () => (limited ? { status: 429, body: { message: 'You are being rate limited.', retry_after: 1 } } : { status: 204 }))
  const url = `${discord.url}/api/webhooks/1/tok`
  t.same(await sendDiscord(env(), url, message), { ok: true })
  const body = JSON.parse(discord.requests[0]?.body ?? '{}') as Record<string, unknown>
  t.equal(body.content, '**Order refused: buy NQZ6**\nDaily loss limit reached.')
  t.equal(discord.requests[0]?.path, '/api/webhooks/1/tok')
  limited = true
  const refused = await sendDiscord(env(), url, message)
  t.equal(refused.ok, false)
  if (!refused.ok) {
    t.match(refused.error, /^Discord answered 429/)
    t.notMatch(refused.error, /tok/, 'never the webhook URL')
  }
})

t.test('signed webhook: HMAC-SHA256 of "<timestamp>.<body>" in the signature header', async (t) => {
  const hook = await startHttpPeer(t, () => ({ status: 200 }))
  const secret = 'a-signing-secret-of-some-length'
  const now = new Date('2026-11-26T15:00:00Z')
  t.same(await sendSignedWebhook(env(), `${hook.url}/hooks/signals`, secret, message, now), { ok: true })
  const request = hook.requests[0]
  t.equal(request?.headers[TIMESTAMP_HEADER], String(now.getTime() / 1000))
  t.equal(request?.headers[SIGNATURE_HEADER], webhookSignature(secret, String(now.getTime() / 1000), request?.body ?? ''))
  t.match(request?.headers[SIGNATURE_HEADER], /^sha256=[0-9a-f]{64}$/)
  t.same(JSON.parse(request?.body ?? '{}'), message, 'the event as JSON')
  t.not(webhookSignature('another-secret-entirely', '1', 'x'), webhookSignature(secret, '1', 'x'), 'the secret matters')
})

t.test('an unreachable peer is a failure that names the cause, never the URL', async (t) => {
  const refused = await sendSignedWebhook(env(), `http://127.0.0.1:${await freePort()}/secret-path`, 'a-signing-secret-of-some-length', message)
  t.equal(refused.ok, false)
  if (!refused.ok) {
    t.match(refused.error, /could not be reached \(ECONNREFUSED\)/)
    t.notMatch(refused.error, /secret-path/)
  }
})
