import t, { type Test } from 'tap'
import { NotificationEventV1, Subjects, contract } from '@signals/contracts'
import { eventually, waitFor } from '@signals/test-support'
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, webhookSignature } from '../../src/notifications/senders/signed-webhook.ts'
import { sql } from '@signals/db'
import { build } from '../helper.ts'
import { startHttpPeer, type ReceivedRequest } from './peers.ts'

const SIGNING_SECRET = 'flow-signing-secret-0123456789'
type Env = Awaited<ReturnType<typeof build>>

async function setup(t: Test, overrides: Record<string, string> = {}) {
  const discord = await startHttpPeer(t, () => ({ status: 204 }))
  const env = await build(t, {
    overrides: {
      NOTIFY_DISCORD_WEBHOOK_PREFIX: `${discord.url}/api/webhooks/`,
      NOTIFY_ALLOW_HTTP_WEBHOOKS: 'true',
      NOTIFY_RELAY_INTERVAL_MS: '100',
      NOTIFY_DISPATCH_INTERVAL_MS: '100',
      NOTIFY_RETRY_BASE_MS: '100',
      NOTIFY_SEND_TIMEOUT_MS: '3000',
      ...overrides,
    },
  })
  const headers = await env.createUser('flow-user')
  return { ...env, headers, discord }
}

async function addChannel(env: Env, headers: Record<string, string>, payload: object): Promise<string> {
  const response = await env.app.inject({ method: 'POST', url: '/api/notifications/channels', headers, payload })
  if (response.statusCode !== 200) throw new Error(response.body)
  return response.json<{ channel: { id: string } }>().channel.id
}

const bodyOf = (request: ReceivedRequest | undefined) => JSON.parse(request?.body ?? '{}') as Record<string, unknown>

t.test('order path events reach the channels whose filter holds them, signed, once each', async (t) => {
  const env = await setup(t)
  const { app, headers, discord } = env
  const hook = await startHttpPeer(t, () => ({ status: 200 }))
  await addChannel(env, headers, { kind: 'webhook', name: 'hook', events: ['order_refused', 'order_failed', 'trade_closed', 'daily_loss'], url: `${hook.url}/in`, signingSecret: SIGNING_SECRET })
  await addChannel(env, headers, { kind: 'discord', name: 'discord', events: ['fill'], webhookUrl: `${discord.url}/api/webhooks/1/tok` })

  const record = await app.db.insertInto('alerts').values({ alert_id: 'a-1', user_id: 'flow-user', symbol: 'NQ1!', action: 'LONG', raw_data: '{}', status: 'received' }).returning('id').executeTakeFirstOrThrow()
  await app.db.updateTable('alerts').set({ status: 'refused', reason: 'Outside trading hours.', refusal_code: 'outside_hours' }).where('id', '=', record.id).execute()
  const refused = await waitFor(() => hook.requests.find((r) => bodyOf(r).kind === 'order_refused'), { what: 'the refusal on the webhook' })
  t.match(bodyOf(refused), { eventId: `order_refused:alert:${record.id}`, title: 'Order refused: LONG NQ1!', text: 'Outside trading hours.' })
  const timestamp = String(refused.headers[TIMESTAMP_HEADER])
  t.equal(refused.headers[SIGNATURE_HEADER], webhookSignature(SIGNING_SECRET, timestamp, refused.body), 'signed with the channel secret')

  const trade = await app.db
    .insertInto('trades')
    .values({ user_id: 'flow-user', symbol: 'NQ1!', contract: 'NQZ6', side: 'LONG', quantity: '2', entry_price: '21000.25', status: 'open', broker: 'paper', environment: 'demo' })
    .returning('id')
    .executeTakeFirstOrThrow()
  const fill = await waitFor(() => discord.requests[0], { what: 'the fill on Discord' })
  t.equal(bodyOf(fill).content, `**Filled: LONG 2 NQZ6 at 21000.25**\nTrade ${trade.id} is open.`)
  await app.db.updateTable('trades').set({ status: 'closed', result: 'TP', exit_price: '21010.25', pnl: '400.00', closed_at: new Date() }).where('id', '=', trade.id).execute()
  const closed = await waitFor(() => hook.requests.find((r) => bodyOf(r).kind === 'trade_closed'), { what: 'the closed trade' })
  t.match(bodyOf(closed), { title: 'Trade closed: NQZ6 TP, P&L 400.00', text: 'LONG 2 NQZ6 from 21000.25 to 21010.25.' })

  await app.db.insertInto('risk_halts').values({ user_id: 'flow-user', code: 'daily_loss_limit_hard', reason: 'Open loss reached the hard daily loss limit.', open_pnl: '-1000.00' }).execute()
  const halted = await waitFor(() => hook.requests.find((r) => bodyOf(r).kind === 'daily_loss'), { what: 'the daily loss' })
  t.match(bodyOf(halted), { title: 'Daily loss limit reached', text: 'Open loss reached the hard daily loss limit.' })

  // The same refusal written again is the same event: not sent twice.
  await app.db.updateTable('alerts').set({ status: 'refused' }).where('id', '=', record.id).execute()
  await eventually(async () => (await app.db.selectFrom('notification_events').select('id').where('published_at', 'is', null).execute()).length === 0)
  const deliveries = await app.inject({ method: 'GET', url: '/api/notifications/deliveries', headers })
  t.same(deliveries.json<{ deliveries: { kind: string; status: string }[] }>().deliveries.map((d) => `${d.kind}:${d.status}`).sort(), ['daily_loss:sent', 'fill:sent', 'order_refused:sent', 'trade_closed:sent'])
  t.equal(hook.requests.length, 3, 'the webhook heard refusal, close and daily loss only')
  t.equal(discord.requests.length, 1, 'Discord heard the fill only')
})

t.test('a failing channel is retried with backoff, recorded, and never holds another channel', async (t) => {
  const env = await setup(t, { NOTIFY_MAX_ATTEMPTS: '3' })
  const { app, headers, discord } = env
  let flaky = 2
  const flakyHook = await startHttpPeer(t, () => (flaky-- > 0 ? { status: 503, body: { error: 'busy' } } : { status: 200 }))
  const deadHook = await startHttpPeer(t, () => ({ status: 500, body: { error: 'down' } }))
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  const flakyId = await addChannel(env, headers, { kind: 'webhook', name: 'flaky', events: ['order_failed'], url: `${flakyHook.url}/in`, signingSecret: SIGNING_SECRET })
  const deadId = await addChannel(env, headers, { kind: 'webhook', name: 'dead', events: ['order_failed'], url: `${deadHook.url}/in`, signingSecret: SIGNING_SECRET })
  await addChannel(env, headers, { kind: 'discord', name: 'discord', events: ['order_failed'], webhookUrl: `${discord.url}/api/webhooks/1/tok` })
  // A channel that does not answer until released: the others are sent meanwhile.
  const slowServer = await startHangingPeer(t, held)
  await addChannel(env, headers, { kind: 'webhook', name: 'slow', events: ['order_failed'], url: slowServer, signingSecret: SIGNING_SECRET })

  await app.db.insertInto('alerts').values({ alert_id: 'f-1', user_id: 'flow-user', symbol: 'ES1!', action: 'SHORT', raw_data: '{}', status: 'failed', reason: 'Broker refused the order.' }).execute()
  await waitFor(() => discord.requests[0], { what: 'Discord, while the slow channel hangs' })
  await waitFor(() => (flakyHook.requests.length === 3 ? true : undefined), { what: 'the third try of the flaky channel' })
  release()

  const rows = await waitFor(async () => {
    const all = await app.db.selectFrom('notification_deliveries').selectAll().execute()
    return all.every((row) => row.status !== 'pending') ? all : undefined
  }, { what: 'every delivery settled' })
  const byChannel = new Map(rows.map((row) => [row.channel_id, row]))
  t.match(byChannel.get(flakyId), { status: 'sent', attempts: 3 }, 'sent on the third attempt')
  t.match(byChannel.get(deadId), { status: 'failed', attempts: 3, last_error: /The webhook answered 500/ }, 'given up after the last attempt')
  t.equal(deadHook.requests.length, 3)
  const channels = (await app.inject({ method: 'GET', url: '/api/notifications/channels', headers })).json<{ channels: { id: string; lastError: string | null; lastFailedAt: string | null }[] }>().channels
  t.match(channels.find((c) => c.id === deadId), { lastError: /answered 500/, lastFailedAt: String }, 'the trader sees why')
})

/** An HTTP peer that answers only once `held` resolves. */
async function startHangingPeer(t: Test, held: Promise<void>): Promise<string> {
  const { createServer } = await import('node:http')
  const server = createServer((req, res) => {
    req.resume()
    void held.then(() => res.end())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const address = server.address()
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/in`
}

t.test('a kill_switch event published on the bus is delivered; no channel means no event row at all', async (t) => {
  const env = await setup(t)
  const { app, headers, discord } = env
  await app.db.insertInto('alerts').values({ alert_id: 'x-0', user_id: 'flow-user', raw_data: '{}', status: 'refused' }).execute()
  t.equal((await app.db.selectFrom('notification_events').select('id').execute()).length, 0, 'a trader without channels costs the order path no event row')

  await addChannel(env, headers, { kind: 'discord', name: 'discord', events: ['kill_switch'], webhookUrl: `${discord.url}/api/webhooks/1/tok` })
  const disabled = await addChannel(env, headers, { kind: 'discord', name: 'off', events: ['kill_switch'], webhookUrl: `${discord.url}/api/webhooks/2/off` })
  await app.inject({ method: 'PUT', url: `/api/notifications/channels/${disabled}`, headers, payload: { kind: 'discord', name: 'off', enabled: false, events: ['kill_switch'] } })
  const event = { version: 1 as const, eventId: 'kill_switch:flow-user:1', userId: 'flow-user', kind: 'kill_switch' as const, title: 'Kill switch on', text: 'All positions flattened.', occurredAt: new Date().toISOString() }
  await app.bus.publish(Subjects.notificationEvent, contract(NotificationEventV1), event, { messageId: event.eventId })
  const sent = await waitFor(() => discord.requests[0], { what: 'the kill switch on Discord' })
  t.equal(bodyOf(sent).content, '**Kill switch on**\nAll positions flattened.')
  t.equal(sent.path, '/api/webhooks/1/tok', 'only the enabled channel')
  await eventually(async () => (await app.db.selectFrom('notification_deliveries').select('status').where('status', '=', 'sent').execute()).length === 1)
  t.equal(discord.requests.length, 1)
})

t.test('a notice that cannot be recorded never fails the order path write', async (t) => {
  const env = await setup(t)
  const { app, headers, discord } = env
  await addChannel(env, headers, { kind: 'discord', name: 'discord', events: ['order_refused'], webhookUrl: `${discord.url}/api/webhooks/1/tok` })
  // The outbox refuses every row (as a full disk or a broken constraint would).
  await sql`ALTER TABLE notification_events ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`.execute(app.db)
  const record = await app.db.insertInto('alerts').values({ alert_id: 'r-1', user_id: 'flow-user', raw_data: '{}', status: 'received' }).returning('id').executeTakeFirstOrThrow()
  await app.db.updateTable('alerts').set({ status: 'refused', reason: 'Outside trading hours.' }).where('id', '=', record.id).execute()
  const stored = await app.db.selectFrom('alerts').select('status').where('id', '=', record.id).executeTakeFirstOrThrow()
  t.equal(stored.status, 'refused', 'the refusal is stored')
  t.equal((await app.db.selectFrom('notification_events').select('id').execute()).length, 0, 'without its notice')
})
