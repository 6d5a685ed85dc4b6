import t from 'tap'
import { Writable } from 'node:stream'
import { waitFor } from '@signals/test-support'
import type { Config } from '../../src/config.ts'
import { build, eventually, seedUsers } from '../helper.ts'
import { PASSWORD, command, paperBroker, saveCredentials, statusOf } from './feed-helper.ts'

function captureLogs() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString())
      done()
    },
  })
  return { lines, stream }
}

t.test('on start the connector opens a feed for every live user with credentials, and reports each state', async (t) => {
  const broker = await paperBroker(t)
  // Users and credentials exist before the connector starts: build an API-less instance first to seed.
  const seeded = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: false })
  await seedUsers(seeded.db, 3, { prefix: 'live' })
  await seedUsers(seeded.db, 1, { prefix: 'off', live: false })
  await saveCredentials(seeded.db, seeded.config, 'live-0', 'trader0', PASSWORD)
  await saveCredentials(seeded.db, seeded.config, 'live-1', 'trader1', 'wrong-password')
  await saveCredentials(seeded.db, seeded.config, 'off-0', 'trader1', PASSWORD)
  const logs = captureLogs()
  const { buildApp } = await import('../../src/app.ts')
  const app = await buildApp({ ...seeded.config, LOG_LEVEL: 'info' as Config['LOG_LEVEL'] }, { consumers: false, loggerStream: logs.stream })
  t.teardown(() => app.close())
  await app.ready()

  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'connected')
  t.match(await statusOf(app, 'live-0'), { version: 1, userId: 'live-0', state: 'connected', detail: 'account DEMO9000' })
  await eventually(async () => (await statusOf(app, 'live-1'))?.state === 'error')
  t.match(await statusOf(app, 'live-1'), { state: 'error', detail: 'broker refused the login: Incorrect username or password. Please try again.' })
  await eventually(async () => (await statusOf(app, 'live-2'))?.state === 'error')
  t.match(await statusOf(app, 'live-2'), { state: 'error', detail: 'no broker credentials' })
  t.equal(await statusOf(app, 'off-0'), null, 'a user with live trading off gets no feed')
  t.same(broker.sessions(), ['trader0'])
  const all = logs.lines.join('')
  t.notOk(all.includes(PASSWORD) || all.includes('wrong-password') || all.includes('app-secret-value'), 'no secret in any log line')
  t.ok(all.includes('broker feed connected'), 'the logs were captured')
})

t.test('feed commands stop, start and restart a user\'s session; a dropped session reconnects', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: true })
  await seedUsers(db, 1, { prefix: 'live' })
  await saveCredentials(db, config, 'live-0', 'trader0', PASSWORD)

  await command(app, 'live-0', 'start')
  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'connected')
  t.same(broker.sessions(), ['trader0'])

  await command(app, 'live-0', 'start')
  await command(app, 'live-0', 'stop')
  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'stopped')
  await eventually(() => broker.sessions().length === 0)
  t.same(app.feeds.connectedUsers(), [])

  await command(app, 'live-0', 'start')
  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'connected')
  t.equal(broker.sessions().length, 1, 'one session, not one per start')

  // New credentials (another login) take effect on restart.
  await saveCredentials(db, config, 'live-0', 'trader1', PASSWORD)
  await command(app, 'live-0', 'restart')
  await eventually(() => broker.sessions().join() === 'trader1')
  // The broker authorizes the session before the connector has reconciled it and says connected.
  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'connected')
  t.match(await statusOf(app, 'live-0'), { state: 'connected', detail: 'account DEMO9001' })

  broker.dropConnections()
  const dropped = await waitFor(async () => {
    const status = await statusOf(app, 'live-0')
    return status?.state === 'error' ? status : undefined
  }, { timeoutMs: 15_000, intervalMs: 25 })
  t.match(dropped.detail, /reconnecting$/)
  await eventually(async () => (await statusOf(app, 'live-0'))?.state === 'connected')
  t.same(broker.sessions(), ['trader1'], 'the session came back by itself')
})

t.test('credentials sealed under another key report an error, never a crash', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: true })
  await seedUsers(db, 1, { prefix: 'live' })
  await saveCredentials(db, { ...config, CREDENTIALS_KEY_ID: 'old', CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64') }, 'live-0', 'trader0', PASSWORD)
  await command(app, 'live-0', 'start')
  // The start-up resume and this command both try (connecting, then error): judge the error state as seen,
  // not a later read that may catch the second attempt's "connecting".
  const failed = await waitFor(async () => {
    const status = await statusOf(app, 'live-0')
    return status?.state === 'error' ? status : undefined
  }, { timeoutMs: 15_000, intervalMs: 25 })
  t.match(failed, { detail: /could not be opened/ })
  t.same(broker.tokenRequests, [], 'nothing was sent to the broker')
})

t.test('a start for a user whose live trading is off opens nothing (the database is the truth)', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: true })
  await seedUsers(db, 1, { prefix: 'off', live: false })
  await saveCredentials(db, config, 'off-0', 'trader0', PASSWORD)
  await command(app, 'off-0', 'start')
  await command(app, 'off-0', 'restart')
  await eventually(async () => (await statusOf(app, 'off-0'))?.state === 'stopped')
  t.match(await statusOf(app, 'off-0'), { state: 'stopped', detail: 'live trading is off' })
  t.same(broker.tokenRequests, [], 'no login attempted')
  t.same(app.feeds.connectedUsers(), [])
})

t.test('a restart is opening from the moment its old session is dropped: what needs the session never sees a gap with none', async (t) => {
  // The slow-broker test saw it: a record past its grace was failed "no connected broker session" by a
  // redelivery that came between the old session's drop and the new one's open (a status write, a read).
  const broker = await paperBroker(t)
  const { app, db, config } = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: true })
  await seedUsers(db, 1, { prefix: 'live' })
  await saveCredentials(db, config, 'live-0', 'trader0', PASSWORD)
  await app.feeds.start('live-0')
  t.ok(app.feeds.session('live-0'), 'connected')
  const openingWhenDropped: boolean[] = []
  app.feeds.addHooks({ onFeedDropped: (userId) => void openingWhenDropped.push(app.feeds.opening(userId)) })
  await app.feeds.restart('live-0')
  t.same(openingWhenDropped, [true], 'dropped for the restart while its new session was already being opened')
  t.ok(app.feeds.session('live-0'), 'the new session handed out')
  t.notOk(app.feeds.opening('live-0'), 'no longer opening once handed out')
})
