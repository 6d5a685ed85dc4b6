import t from 'tap'
import { openBucket } from '@signals/bus'
import { Buckets, feedStatusKey, type FeedStatus } from '@signals/contracts'
import { waitFor } from '@signals/test-support'
import { FeedEventTracker } from '../../src/notifications/feed-events.ts'
import { build } from '../helper.ts'
import { startHttpPeer } from './peers.ts'

const status = (state: FeedStatus['state'], detail: string | null): FeedStatus => ({ version: 1, userId: 'feed-user', state, detail, updatedAt: '2026-11-26T15:00:00.000Z' })

t.test('one feed_down per outage, not per reconnect attempt; a final login error is broker_login_failed', async (t) => {
  const tracker = new FeedEventTracker()
  const kinds = (
    [
      status('connecting', null),
      status('error', 'broker session could not be opened; retrying in 1 s'),
      status('connecting', null),
      status('connected', 'account DEMO1'),
      status('error', 'socket closed; reconnecting'),
      status('connecting', null),
      status('error', 'broker session could not be opened; retrying in 2 s'),
      status('connected', 'account DEMO1'),
      status('stopped', null),
      status('error', 'The broker refused the user name or password'),
      status('error', 'no broker credentials'),
    ] as const
  ).map((next, revision) => tracker.next(next, revision)?.kind ?? null)
  t.same(kinds, [null, null, null, null, 'feed_down', null, null, null, null, 'broker_login_failed', 'broker_login_failed'])
  const seeded = new FeedEventTracker()
  seeded.seed(status('connected', null))
  t.match(seeded.next(status('error', 'socket closed; reconnecting'), 9), { kind: 'feed_down', text: 'socket closed; the platform is reconnecting.' }, 'a feed connected at start is known')
})

t.test('feed status changes written by the connector reach the trader channels', async (t) => {
  const hook = await startHttpPeer(t, () => ({ status: 200 }))
  const env = await build(t, { overrides: { NOTIFY_ALLOW_HTTP_WEBHOOKS: 'true', NOTIFY_RELAY_INTERVAL_MS: '100', NOTIFY_DISPATCH_INTERVAL_MS: '100' } })
  const headers = await env.createUser('feed-user')
  const created = await env.app.inject({
    method: 'POST',
    url: '/api/notifications/channels',
    headers,
    payload: { kind: 'webhook', name: 'hook', events: ['feed_down', 'broker_login_failed'], url: `${hook.url}/in`, signingSecret: 'feed-signing-secret-0123' },
  })
  t.equal(created.statusCode, 200, created.body)
  const kv = await openBucket(env.app.bus, Buckets.feedStatus)
  const put = (next: FeedStatus) => kv.put(feedStatusKey('feed-user'), JSON.stringify(next))
  await put(status('connected', 'account DEMO1'))
  await put(status('error', 'socket closed; reconnecting'))
  await put(status('error', 'broker session could not be opened; retrying in 2 s'))
  await put(status('error', 'The broker refused the user name or password'))
  const kinds = await waitFor(() => (hook.requests.length >= 2 ? hook.requests.map((r) => (JSON.parse(r.body) as { kind: string }).kind) : undefined), { what: 'two notices' })
  t.same(kinds.sort(), ['broker_login_failed', 'feed_down'])
  const rows = await env.app.db.selectFrom('notification_deliveries').select('kind').execute()
  t.equal(rows.length, 2, 'nothing for the retry in between')
})
