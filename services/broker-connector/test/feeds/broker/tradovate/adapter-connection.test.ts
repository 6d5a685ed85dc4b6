import t from 'tap'
import { startPaperBroker } from '@signals/dev-paper-broker'
import { BrokerError } from '../../../../src/feeds/broker/broker-adapter.ts'
import { renewalDelayMs } from '../../../../src/feeds/broker/tradovate/token-renewal.ts'
import { ACCOUNT, LOGIN, openSession, paperBroker, until } from './helper.ts'

const OTHER = { ...ACCOUNT, name: 'other', userId: 8, accountId: 80, accountName: 'DEMO80' }
const OTHER_LOGIN = { ...LOGIN, username: 'other', account: 'DEMO80' }

t.test('renewal is scheduled before the expiry: five minutes ahead, or a quarter of a short life', async (t) => {
  t.equal(renewalDelayMs(90 * 60_000, 0, 5 * 60_000), 85 * 60_000)
  t.equal(renewalDelayMs(2_000, 0, 5 * 60_000), 1_500)
  t.equal(renewalDelayMs(0, 1_000, 5 * 60_000), 0, 'an expired token is renewed at once')
})

t.test('the token is renewed before its expiry for as long as the session is open', async (t) => {
  // A second login renews on the same schedule: its renewals show when ours would have come.
  const broker = await paperBroker(t, { tokenTtlMs: 1_500, accounts: [ACCOUNT, OTHER] })
  const opened = Date.now()
  const { session, lost } = await openSession(t, broker)
  await openSession(t, broker, {}, OTHER_LOGIN)
  const renewalsOf = (name: string) => broker.renewals.filter((renewal) => renewal.name === name).length
  await until(() => renewalsOf('trader') >= 3 && Date.now() > opened + 4_000)
  t.same(lost, [], 'the session outlived three token lifetimes')
  t.same(broker.sessions().sort(), ['other', 'trader'])
  t.same(await session.listOrders(), [], 'and still answers')
  const renewals = broker.requests.filter((request) => request.endpoint === 'auth/renewaccesstoken' && request.name === 'trader')
  t.ok(renewals.length >= 3)
  session.close()
  // The other login's next renewal: one of ours in flight at the close has been answered by then.
  const atClose = renewalsOf('other')
  await until(() => renewalsOf('other') > atClose)
  const after = renewalsOf('trader')
  // Two more of the other's: a whole renewal period has passed, in which ours would have come.
  const others = renewalsOf('other')
  await until(() => renewalsOf('other') >= others + 2)
  t.equal(renewalsOf('trader'), after, 'no renewal after close')
})

t.test('without renewal the broker ends the session at expiry, and the session reports it lost once', async (t) => {
  const broker = await paperBroker(t, { tokenTtlMs: 1_500 })
  broker.interfere('auth/renewaccesstoken', { kind: 'server_error' }, 1_000)
  const { lost } = await openSession(t, broker, { retry: { serverErrorWaitMs: 100 } })
  await until(() => lost.length > 0)
  t.match(lost[0], /access token|closed the session|Access token expired/)
  // The broker has let the session go (token expired, socket closed), and a later login went through it:
  // whatever the old socket and renewal had still to say has been heard.
  await until(() => broker.sessions().length === 0)
  await openSession(t, broker)
  t.equal(lost.length, 1)
})

t.test('a penalty on renewal is honoured with the ticket (POST resend)', async (t) => {
  const broker = await paperBroker(t, { tokenTtlMs: 8_000 })
  broker.interfere('auth/renewaccesstoken', { kind: 'penalty', seconds: 1 })
  const { lost } = await openSession(t, broker)
  await until(() => broker.renewals.length >= 1)
  const renewals = broker.requests.filter((request) => request.endpoint === 'auth/renewaccesstoken')
  t.same(renewals.slice(0, 2).map((request) => request.ticket), [false, true])
  t.same(lost, [])
})

t.test('a socket dropped while an order is in flight: unavailable, the order exists at the broker, found by tag after reconnecting', async (t) => {
  let dropOnOrder = false
  const broker = await startPaperBroker({
    accounts: [ACCOUNT],
    heartbeatMs: 200,
    onRequest: (request) => {
      if (request.endpoint === 'order/placeOSO' && dropOnOrder) setImmediate(() => broker.dropConnections())
    },
  })
  t.teardown(() => broker.close())
  broker.delay('order/placeOSO', 300)
  const { session, lost } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  dropOnOrder = true
  const error = await session.placeBracket({ tag: 'rec-lost', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20000', stopPrice: '19990', targetPrice: '20010' }).catch((caught: unknown) => caught)
  t.ok(error instanceof BrokerError)
  t.match(error, { kind: 'unavailable', message: /outcome is unknown/ })
  await until(() => lost.length === 1)
  await t.rejects(session.listOrders(), { kind: 'unavailable', message: /not connected/ }, 'a lost session refuses further requests')
  dropOnOrder = false
  const again = await openSession(t, broker)
  t.same((await again.session.listOrders()).map((order) => order.tag), ['rec-lost', 'rec-lost.sl', 'rec-lost.tp'], 'the order was placed; reconciliation finds it by tag')
})

t.test('a dropped socket is reported lost once; close() is not reported', async (t) => {
  const broker = await paperBroker(t)
  const dropped = await openSession(t, broker)
  const closed = await openSession(t, broker)
  closed.session.close()
  broker.dropConnections()
  await until(() => dropped.lost.length === 1)
  // A session opened after the drop: the broker ended both sockets before it answered this one.
  await openSession(t, broker)
  t.equal(dropped.lost.length, 1)
  t.same(closed.lost, [])
})

t.test('an unreachable broker is unavailable', async (t) => {
  const broker = await paperBroker(t)
  await broker.close()
  await t.rejects(openSession(t, broker), { kind: 'unavailable', message: /unreachable/ })
})
