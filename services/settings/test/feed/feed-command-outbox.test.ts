import t from 'tap'
import { sql } from '@signals/db'
import { FeedCommandV1, contract, Subjects } from '@signals/contracts'
import { eventually, startPrivateNats } from '@signals/test-support'
import { build } from '../helper.ts'
import { publishPendingFeedCommands } from '../../src/feed/feed-command-publisher.ts'

const live = (enabled: boolean) => ({ settingKey: 'live_trading', settingValue: { enabled, autoPlaceOrders: true } })
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined }

t.test('with the bus down a change is saved, its command queued, and the relay sends it in order later', async (t) => {
  const nats = await startPrivateNats()
  t.teardown(() => nats.destroy())
  const { app, createUser, feedMessages } = await build(t, { overrides: { NATS_URL: nats.url, FEED_PUBLISH_TIMEOUT_MS: '300' } })
  const headers = await createUser('gina')

  await nats.stop()
  const on = await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: live(true) })
  t.equal(on.statusCode, 200, 'the save stands: the command is durable in the outbox')
  t.match(on.json(), { success: true, setting: { value: { enabled: true } }, feedCommand: { action: 'start', delivery: 'queued' } })
  const off = await app.inject({ method: 'POST', url: '/api/trading-settings', headers, payload: live(false) })
  t.match(off.json().feedCommand, { action: 'stop', delivery: 'queued' })
  const pending = await app.db.selectFrom('feed_commands').select(['action', 'published_at']).where('user_id', '=', 'gina').orderBy('id').execute()
  t.same(pending.map((row) => [row.action, row.published_at]), [['start', null], ['stop', null]])

  const status = await app.inject({ method: 'GET', url: '/api/live-trading-status', headers })
  t.equal(status.statusCode, 200, 'status still answers with the bus down')
  t.match(status.json().status, { liveTradingEnabled: false, brokerConnection: { connected: false, state: 'unknown' } }, 'and says the connection state is unknown')

  await nats.start()
  // The client reconnects on its own: relay passes, as the timer would run them, until one gets through.
  let published = 0
  await eventually(async () => {
    published += (await app.feedCommandRelay?.runOnce()) ?? 0
    return published >= 2
  }, { timeoutMs: 10_000, intervalMs: 250, what: 'a relay pass publishing the queued commands' })
  t.equal(published, 2, 'the relay published both')
  const messages = await feedMessages()
  t.same(messages.map((m) => m.subject), ['feeds.start', 'feeds.stop'], 'in the order they were decided')
  const after = await app.db.selectFrom('feed_commands').select('published_at').where('user_id', '=', 'gina').execute()
  t.ok(after.every((row) => row.published_at !== null))
})

t.test('a command left unpublished by a crash is re-sent under the same id and the stream drops the duplicate', async (t) => {
  const { app, createUser, feedMessages } = await build(t)
  await createUser('hank')
  // As if the process died after publishing but before marking the row: publish by hand, leave the row.
  const row = await app.db
    .insertInto('feed_commands')
    .values({ command_id: 'feed-start-crash-test', user_id: 'hank', action: 'start', reason: 'live trading enabled', requested_at: sql<Date>`now()` })
    .returningAll()
    .executeTakeFirstOrThrow()
  await app.bus.publish(Subjects.feedStart, contract(FeedCommandV1), {
    version: 1,
    commandId: row.command_id,
    userId: 'hank',
    action: 'start',
    reason: row.reason,
    requestedAt: row.requested_at.toISOString(),
  }, { messageId: row.command_id })

  const outcome = await publishPendingFeedCommands(app.db, app.bus, 'hank', { wait: true, timeoutMs: 2000, logger: silent })
  t.same([...outcome.published], ['feed-start-crash-test'], 'the pending row was re-sent and marked')
  const messages = await feedMessages()
  t.equal(messages.length, 1, 'JetStream kept one copy')
  const again = await publishPendingFeedCommands(app.db, app.bus, 'hank', { wait: true, timeoutMs: 2000, logger: silent })
  t.equal(again.published.size, 0, 'nothing left to send')
})

t.test('the relay skips a user whose commands another publisher is sending', async (t) => {
  const { app, createUser } = await build(t)
  await createUser('ivy')
  await app.db.insertInto('feed_commands').values({ command_id: 'feed-stop-locked', user_id: 'ivy', action: 'stop', reason: 'test' }).execute()
  await app.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${'feed-commands:ivy'}, 0))`.execute(trx)
    const skipped = await publishPendingFeedCommands(app.db, app.bus, 'ivy', { wait: false, timeoutMs: 1000, logger: silent })
    t.equal(skipped.attempted, false, 'did not wait for the lock')
    t.equal(skipped.published.size, 0)
  })
  const sent = await publishPendingFeedCommands(app.db, app.bus, 'ivy', { wait: false, timeoutMs: 2000, logger: silent })
  t.same([...sent.published], ['feed-stop-locked'], 'sent once the lock was free')
})

t.test('the relay timer sends a command a crashed instance left behind, without any request', async (t) => {
  const { app, createUser, feedMessages } = await build(t, { overrides: { FEED_RELAY_INTERVAL_MS: '100' } })
  await createUser('jack')
  await app.db.insertInto('feed_commands').values({ command_id: 'feed-start-orphan', user_id: 'jack', action: 'start', reason: 'live trading enabled' }).execute()
  await eventually(async () => {
    const row = await app.db.selectFrom('feed_commands').select('published_at').where('command_id', '=', 'feed-start-orphan').executeTakeFirstOrThrow()
    return row.published_at !== null
  }, { timeoutMs: 5_000, what: 'the relay timer to mark the command published' })
  t.same((await feedMessages()).map((m) => [m.subject, m.messageId]), [['feeds.start', 'feed-start-orphan']])
})

t.test('commands published over a week ago are deleted; newer and unpublished ones stay', async (t) => {
  const { app, createUser } = await build(t)
  await createUser('jude')
  const daysAgo = (days: number) => sql<Date>`now() - make_interval(days => ${days})`
  await app.db
    .insertInto('feed_commands')
    .values([
      { command_id: 'feed-start-old', user_id: 'jude', action: 'start', reason: 'r', requested_at: daysAgo(9), published_at: daysAgo(8) },
      { command_id: 'feed-stop-recent', user_id: 'jude', action: 'stop', reason: 'r', requested_at: daysAgo(2), published_at: daysAgo(2) },
      { command_id: 'feed-start-never-sent', user_id: 'jude', action: 'start', reason: 'r', requested_at: daysAgo(30) },
    ])
    .execute()
  t.equal(await app.feedCommandRelay?.purgeOnce(), 1)
  const left = await app.db.selectFrom('feed_commands').select('command_id').where('user_id', '=', 'jude').orderBy('id').execute()
  t.same(left.map((row) => row.command_id), ['feed-stop-recent', 'feed-start-never-sent'], 'an unpublished command is never deleted, however old')
})
