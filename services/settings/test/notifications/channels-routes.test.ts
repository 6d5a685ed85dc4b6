import t, { type Test } from 'tap'
import { build } from '../helper.ts'
import { startHttpPeer, startSmtpPeer, telegramAnswer } from './peers.ts'

const TOKEN = '123456:SECRET-bot-token'

async function setup(t: Test) {
  const telegram = await startHttpPeer(t, telegramAnswer(TOKEN))
  const discord = await startHttpPeer(t, () => ({ status: 204 }))
  const env = await build(t, {
    captureLogs: true,
    overrides: { NOTIFY_TELEGRAM_API_URL: telegram.url, NOTIFY_DISCORD_WEBHOOK_PREFIX: `${discord.url}/api/webhooks/`, NOTIFY_ALLOW_HTTP_WEBHOOKS: 'false' },
  })
  const headers = await env.createUser('notify-user')
  return { ...env, headers, telegram, discord }
}

t.test('channels are added, listed, replaced and deleted; secrets are sealed and never shown or logged', async (t) => {
  const { app, headers, discord, logLines, createUser } = await setup(t)
  const created = await app.inject({
    method: 'POST',
    url: '/api/notifications/channels',
    headers,
    payload: { kind: 'telegram', name: 'My phone', events: ['order_refused', 'fill'], chatId: '-100200300', botToken: TOKEN },
  })
  t.equal(created.statusCode, 200, created.body)
  const channel = created.json<{ channel: { id: string; secretSet: boolean; settings: unknown; enabled: boolean } }>().channel
  t.equal(channel.secretSet, true)
  t.equal(channel.enabled, true)
  t.same(channel.settings, { chatId: '-100200300' })
  const discordUrl = `${discord.url}/api/webhooks/42/SECRET-discord-token`
  const second = await app.inject({ method: 'POST', url: '/api/notifications/channels', headers, payload: { kind: 'discord', name: 'Server', events: ['trade_closed'], webhookUrl: discordUrl } })
  t.equal(second.statusCode, 200, second.body)

  const listed = await app.inject({ method: 'GET', url: '/api/notifications/channels', headers })
  t.equal(listed.json<{ channels: unknown[] }>().channels.length, 2)
  for (const body of [created.body, second.body, listed.body]) t.notMatch(body, /SECRET/, 'no secret in any response')
  t.notOk(logLines.some((line) => line.includes('SECRET')), 'no secret in the logs')

  const row = await app.db.selectFrom('notification_channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow()
  t.notOk(row.secret_ciphertext.toString('latin1').includes('SECRET'), 'stored sealed')
  // A sealed secret copied onto another channel does not open there.
  const other = second.json<{ channel: { id: string } }>().channel.id
  await app.db.updateTable('notification_channels').set({ key_id: row.key_id, secret_iv: row.secret_iv, secret_tag: row.secret_tag, secret_ciphertext: row.secret_ciphertext }).where('id', '=', other).execute()
  const copied = await app.inject({ method: 'GET', url: '/api/notifications/channels', headers })
  t.equal(copied.json<{ channels: { id: string; secretSet: boolean }[] }>().channels.find((c) => c.id === other)?.secretSet, false, 'bound to its own channel')

  // Replace without the token: the stored one is kept.
  const replaced = await app.inject({ method: 'PUT', url: `/api/notifications/channels/${channel.id}`, headers, payload: { kind: 'telegram', name: 'Phone', enabled: false, events: ['kill_switch'], chatId: '@my_channel' } })
  t.equal(replaced.statusCode, 200, replaced.body)
  t.match(replaced.json(), { channel: { name: 'Phone', enabled: false, events: ['kill_switch'], secretSet: true, settings: { chatId: '@my_channel' } } })

  const deleted = await app.inject({ method: 'DELETE', url: `/api/notifications/channels/${channel.id}`, headers })
  t.same(deleted.json(), { success: true, deleted: true })
  const again = await app.inject({ method: 'DELETE', url: `/api/notifications/channels/${channel.id}`, headers })
  t.same(again.json(), { success: true, deleted: false })
  const otherUser = await app.inject({ method: 'PUT', url: `/api/notifications/channels/${other}`, headers: await createUser('someone-else'), payload: { kind: 'discord', name: 'x', events: [] } })
  t.equal(otherUser.statusCode, 404, "another trader's channel is not found")
})

t.test('bad input is a 400 saying what is wrong', async (t) => {
  const { app, headers } = await setup(t)
  const post = (payload: unknown) => app.inject({ method: 'POST', url: '/api/notifications/channels', headers, payload: payload as object })
  const cases: [string, unknown, RegExp][] = [
    ['unknown event', { kind: 'telegram', name: 'x', events: ['moon'], chatId: '1', botToken: TOKEN }, /Invalid notification channel/],
    ['missing token', { kind: 'telegram', name: 'x', events: [], chatId: '1' }, /botToken is required/],
    ['discord elsewhere', { kind: 'discord', name: 'x', events: [], webhookUrl: 'https://evil.example.com/hook' }, /webhookUrl must start with/],
    ['http webhook', { kind: 'webhook', name: 'x', events: [], url: 'http://example.com/hook', signingSecret: 'sixteen-chars-long!' }, /url must be https/],
    ['short signing secret', { kind: 'webhook', name: 'x', events: [], url: 'https://example.com/hook', signingSecret: 'short' }, /signingSecret/],
    ['bad chat id', { kind: 'telegram', name: 'x', events: [], chatId: 'not a chat', botToken: TOKEN }, /chatId/],
    ['unknown kind', { kind: 'pigeon', name: 'x', events: [] }, /kind/],
    ['no kind', { name: 'x', events: [] }, /kind/],
    ['smtp login without password', { kind: 'email', name: 'x', events: [], smtpHost: 'mail.example.com', smtpPort: 587, smtpTls: false, smtpUsername: 'me', from: 'a@example.com', to: 'b@example.com' }, /smtpPassword is required/],
    ['bad address', { kind: 'email', name: 'x', events: [], smtpHost: 'mail.example.com', smtpPort: 587, smtpTls: false, from: 'nope', to: 'b@example.com' }, /from/],
  ]
  for (const [what, payload, message] of cases) {
    const response = await post(payload)
    t.equal(response.statusCode, 400, what)
    const error = response.json<{ error: string }>().error
    t.match(error, /^Invalid notification channel/, what)
    t.match(error, message, what)
    t.notMatch(error, /SECRET|short/, `${what}: no secret echoed`)
  }
  const created = await post({ kind: 'telegram', name: 'x', events: [], chatId: '1', botToken: TOKEN })
  const id = created.json<{ channel: { id: string } }>().channel.id
  const kindChange = await app.inject({ method: 'PUT', url: `/api/notifications/channels/${id}`, headers, payload: { kind: 'discord', name: 'x', events: [] } })
  t.equal(kindChange.statusCode, 400)
  t.match(kindChange.json<{ error: string }>().error, /kind cannot change/)
  const badId = await app.inject({ method: 'POST', url: '/api/notifications/channels/not-a-uuid/test', headers })
  t.equal(badId.statusCode, 400)
})

t.test('"send a test" sends on the channel now and reports how it went', async (t) => {
  const { app, headers, telegram } = await setup(t)
  const smtp = await startSmtpPeer(t, null)
  const add = async (payload: object) => (await app.inject({ method: 'POST', url: '/api/notifications/channels', headers, payload })).json<{ channel: { id: string } }>().channel.id
  const good = await add({ kind: 'telegram', name: 'ok', events: [], chatId: '5', botToken: TOKEN })
  const bad = await add({ kind: 'telegram', name: 'bad', events: [], chatId: '5', botToken: '999:WRONG' })
  const mail = await add({ kind: 'email', name: 'mail', events: [], smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpTls: false, from: 'signals@example.com', to: 'me@example.com' })

  const sent = await app.inject({ method: 'POST', url: `/api/notifications/channels/${good}/test`, headers })
  t.same(sent.json(), { success: true, sent: true, error: null })
  t.match(JSON.parse(telegram.requests.at(-1)?.body ?? '{}'), { chat_id: '5', text: /Test from Signals/ })
  const refused = await app.inject({ method: 'POST', url: `/api/notifications/channels/${bad}/test`, headers })
  t.same(refused.json(), { success: true, sent: false, error: 'Telegram answered 401: Unauthorized' })
  const mailed = await app.inject({ method: 'POST', url: `/api/notifications/channels/${mail}/test`, headers })
  t.same(mailed.json(), { success: true, sent: true, error: null })
  t.equal(smtp.mails.length, 1)

  const channels = (await app.inject({ method: 'GET', url: '/api/notifications/channels', headers })).json<{ channels: { id: string; lastError: string | null; lastSentAt: string | null }[] }>().channels
  t.match(channels.find((c) => c.id === bad), { lastError: 'Telegram answered 401: Unauthorized' }, 'the failure is kept on the channel')
  t.ok(channels.find((c) => c.id === good)?.lastSentAt, 'the success too')
})
