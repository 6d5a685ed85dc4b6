import t, { type Test } from 'tap'
import type { BrokerEvent, BrokerSession } from '../../src/feeds/broker/broker-adapter.ts'
import { TradovateAdapter } from '../../src/feeds/broker/tradovate/adapter.ts'
import type { FeedStatus } from '@signals/contracts'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { build, eventually, seedUsers, type App } from '../helper.ts'
import { PASSWORD, command, paperBroker, recordStates, saveCredentials, seenState, statusOf } from './feed-helper.ts'
import { waitFor } from '@signals/test-support'

const LOGIN = 'auth/accesstokenrequest'

/** A connector with feeds, one live user with paper credentials, and an adapter with short waits. */
async function liveUser(t: Test, broker: PaperBroker, hooks: Parameters<typeof build>[2] = {}) {
  const adapter = new TradovateAdapter({ heartbeatMs: 200, retry: { rateLimitWaitMs: 2_000, serverErrorWaitMs: 2_000, maxAutoWaitMs: 0 } })
  const built = await build(t, { PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl }, { consumers: false, feeds: true, brokerAdapters: { paper: adapter }, ...hooks })
  await seedUsers(built.db, 1, { prefix: 'live' })
  await saveCredentials(built.db, built.config, 'live-0', 'trader0', PASSWORD)
  return built
}

const logins = (broker: PaperBroker) => broker.requests.filter((request) => request.endpoint === LOGIN).length

for (const [what, interference, detail] of [
  ['a penalty ticket', { kind: 'penalty', seconds: 2 }, /login: the broker asked us to wait 2 s \(a penalty ticket\); retrying in 2 s$/],
  ['a 429', { kind: 'rate_limit' }, /login: the broker asked us to wait 2 s \(HTTP 429\); retrying in 2 s$/],
  ['a 503', { kind: 'server_error' }, /login: the broker asked us to wait 2 s \(HTTP 503\); retrying in 2 s$/],
] as const) {
  t.test(`${what} at login is retried after its wait, and the feed connects`, async (t) => {
    const broker = await paperBroker(t)
    broker.interfere(LOGIN, interference)
    const { app } = await liveUser(t, broker)
    const states = await recordStates(t, app, 'live-0')
    await command(app, 'live-0', 'start')
    const failed: FeedStatus = await waitFor(() => states.find((status) => status.state === 'error'), { timeoutMs: 30_000 })
    t.match(failed.detail, detail)
    await waitFor(() => states.find((status) => status.state === 'connected'), { timeoutMs: 30_000 })
    t.ok(states.findIndex((status) => status.state === 'connected') > states.indexOf(failed), 'connected after the error')
    t.same(broker.sessions(), ['trader0'])
    t.ok(logins(broker) >= 2, 'the login was sent again')
    if (interference.kind === 'penalty') t.equal(broker.requests.filter((request) => request.endpoint === LOGIN)[1]?.ticket, true, 'presenting the penalty ticket')
  })
}

t.test('a refused login leaves the feed down: no retry until new credentials', async (t) => {
  const broker = await paperBroker(t)
  const { app, db, config } = await liveUser(t, broker)
  await saveCredentials(db, config, 'live-0', 'trader0', 'not-the-password')
  await command(app, 'live-0', 'start')
  const failed = await seenState(app, 'live-0', 'error')
  t.equal(failed.detail, 'broker refused the login: Incorrect username or password. Please try again.')
  // The failure is final once published: a retry would be a reconnect timer on a feed the manager keeps.
  t.equal(app.feeds.hasFeed('live-0'), false, 'no retry is scheduled')
  const attempts = logins(broker)
  t.match(await statusOf(app, 'live-0'), { state: 'error' })
  await saveCredentials(db, config, 'live-0', 'trader0', PASSWORD)
  await command(app, 'live-0', 'restart')
  await seenState(app, 'live-0', 'connected')
  t.equal(logins(broker), attempts + 1, 'one login since the failure: the restart\'s')
})

t.test('onSessionOpen runs before the feed is connected and after every reconnect; session() and onEvent', async (t) => {
  const broker = await paperBroker(t)
  /** The app, once built (the hook runs after it is). */
  const built: { app?: App } = {}
  const opened: { state: string | undefined; handedOut: boolean; account: string }[] = []
  const events: [string, BrokerEvent][] = []
  let failNextOpen = false
  const { app } = await liveUser(t, broker, {
    feedHooks: {
      onSessionOpen: async (userId: string, session: BrokerSession) => {
        opened.push({ state: (await statusOf(built.app as App, userId))?.state, handedOut: built.app?.feeds.session(userId) !== null, account: session.snapshot.account.name })
        if (failNextOpen) {
          failNextOpen = false
          throw new Error('reconciliation failed')
        }
      },
      onEvent: (userId: string, event: BrokerEvent) => events.push([userId, event]),
    },
  })
  built.app = app
  await command(app, 'live-0', 'start')
  await seenState(app, 'live-0', 'connected')
  t.same(opened, [{ state: 'connecting', handedOut: false, account: 'DEMO9000' }], 'the hook ran before connected, before session() handed it out')
  const session = app.feeds.session('live-0')
  t.equal(session?.snapshot.account.name, 'DEMO9000')
  t.equal(app.feeds.session('nobody'), null)

  broker.setPrice('MNQZ6', '21000')
  const contract = await (session as BrokerSession).findContract('MNQZ6')
  await (session as BrokerSession).placeBracket({ tag: 'feed-1', contract, action: 'Buy', quantity: 1, entryType: 'Market', entryPrice: null, stopPrice: '20990', targetPrice: null })
  await eventually(() => events.some(([, event]) => event.type === 'fill'))
  t.ok(events.every(([userId]) => userId === 'live-0'))
  t.match(events.find(([, event]) => event.type === 'order')?.[1], { type: 'order', eventType: 'Created', order: { tag: 'feed-1' } })

  failNextOpen = true
  broker.dropConnections()
  await eventually(() => opened.length === 3, 20_000)
  await seenState(app, 'live-0', 'connected')
  t.equal(opened.length, 3, 'a failing hook closed the session and it was opened again')
  t.not(app.feeds.session('live-0'), session, 'a new session after the reconnect')
  t.same(app.feeds.session('live-0')?.snapshot.orders.map((order) => order.tag), ['feed-1', 'feed-1.sl'])
})
