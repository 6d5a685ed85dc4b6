import t from 'tap'
import { BrokerError } from '../../../../src/feeds/broker/broker-adapter.ts'
import { LOGIN, openSession, paperBroker } from './helper.ts'

const logins = (broker: Awaited<ReturnType<typeof paperBroker>>) => broker.requests.filter((request) => request.endpoint === 'auth/accesstokenrequest')

t.test('a penalty ticket at login is waited out and the identical body resent with p-ticket', async (t) => {
  const broker = await paperBroker(t)
  broker.interfere('auth/accesstokenrequest', { kind: 'penalty', seconds: 1 })
  const { session } = await openSession(t, broker)
  t.equal(session.snapshot.account.name, 'DEMO70')
  const [first, second] = logins(broker)
  t.same([first?.ticket, second?.ticket], [false, true])
  const { 'p-ticket': ticket, ...resent } = second?.body as Record<string, unknown>
  t.type(ticket, 'string')
  t.same(resent, first?.body, 'the resend is the same body plus the ticket')
  t.notOk(JSON.stringify(broker.requests).includes(LOGIN.password), 'the broker log never holds the password')
})

t.test('a long penalty at login is handed to the caller as rate_limited with the wait', async (t) => {
  const broker = await paperBroker(t)
  broker.interfere('auth/accesstokenrequest', { kind: 'penalty', seconds: 30 })
  const error = await openSession(t, broker).catch((caught: unknown) => caught)
  t.ok(error instanceof BrokerError)
  t.match(error, { kind: 'rate_limited', retryAfterMs: 30_000, message: /wait 30 s \(a penalty ticket\)/ })
  t.equal(logins(broker).length, 1, 'not resent before the wait')
})

t.test('a second penalty after the resend is handed to the caller (one resend only)', async (t) => {
  const broker = await paperBroker(t)
  broker.interfere('auth/accesstokenrequest', { kind: 'penalty', seconds: 1 }, 2)
  await t.rejects(openSession(t, broker), { kind: 'rate_limited', retryAfterMs: 1_000, message: /penalty/ })
  t.equal(logins(broker).length, 2)
})

t.test('p-captcha is a captcha error with an hour to wait', async (t) => {
  const broker = await paperBroker(t)
  broker.interfere('auth/accesstokenrequest', { kind: 'captcha' })
  await t.rejects(openSession(t, broker), { kind: 'captcha', retryAfterMs: 3_600_000, message: /captcha/ })
  const { session } = await openSession(t, broker)
  broker.interfere('order/list', { kind: 'captcha' })
  await t.rejects(session.listOrders(), { kind: 'captcha', message: /order\/list: the broker asks for a captcha/ })
})

t.test('a wrong password is credentials_refused with the broker text', async (t) => {
  const broker = await paperBroker(t)
  const error = await openSession(t, broker, {}, { ...LOGIN, password: 'wrong' }).catch((caught: unknown) => caught)
  t.match(error, { kind: 'credentials_refused', message: 'broker refused the login: Incorrect username or password. Please try again.' })
  t.notOk(String((error as Error).message).includes('wrong'))
})

t.test('429 and 5xx at login: a short wait is retried once, a repeat is rate_limited', async (t) => {
  const broker = await paperBroker(t)
  const retry = { rateLimitWaitMs: 100, serverErrorWaitMs: 100 }
  broker.interfere('auth/accesstokenrequest', { kind: 'rate_limit' })
  t.ok((await openSession(t, broker, { retry })).session, 'one 429 is waited out')
  broker.interfere('auth/accesstokenrequest', { kind: 'server_error' })
  t.ok((await openSession(t, broker, { retry })).session, 'one 503 is waited out')
  broker.interfere('auth/accesstokenrequest', { kind: 'server_error', status: 502 }, 2)
  await t.rejects(openSession(t, broker, { retry }), { kind: 'rate_limited', retryAfterMs: 100, message: /HTTP 502/ })
  broker.interfere('auth/accesstokenrequest', { kind: 'rate_limit' })
  await t.rejects(openSession(t, broker), { kind: 'rate_limited', retryAfterMs: 60_000, message: /HTTP 429/ }, 'the default wait after a 429 is a minute: too long to wait inside a call')
})

t.test('a penalty on an order: resent once with the ticket, and only one bracket exists', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.interfere('order/placeOSO', { kind: 'penalty', seconds: 1 })
  const placed = await session.placeBracket({ tag: 'rec-p', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20000', stopPrice: '19990', targetPrice: '20010' })
  const sent = broker.requests.filter((request) => request.endpoint === 'order/placeOSO')
  t.equal(sent.length, 2)
  const { 'p-ticket': ticket, ...resent } = sent[1]?.body as Record<string, unknown>
  t.type(ticket, 'string')
  t.same(resent, sent[0]?.body, 'the identical order plus the ticket')
  t.same(broker.orders().map((order) => order.clOrdId), ['rec-p', 'rec-p.sl', 'rec-p.tp'])
  t.equal(broker.orders()[0]?.id, placed.entryOrderId)
})

t.test('a socket 429 on a request: retried once after a short wait, else rate_limited', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker, { retry: { rateLimitWaitMs: 100 } })
  broker.interfere('order/list', { kind: 'rate_limit' })
  t.same(await session.listOrders(), [])
  broker.interfere('cashBalance/getcashbalancesnapshot', { kind: 'rate_limit' }, 2)
  await t.rejects(session.cashBalance(), { kind: 'rate_limited', retryAfterMs: 100, message: /HTTP 429/ })
  broker.interfere('order/placeOSO', { kind: 'penalty', seconds: 20 })
  const contract = await session.findContract('MNQZ6')
  await t.rejects(session.placeBracket({ tag: 'rec-q', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20000', stopPrice: '19990', targetPrice: null }), { kind: 'rate_limited', retryAfterMs: 20_000, message: /penalty/ })
  t.same(broker.orders(), [], 'a penalised order was not placed')
})

t.test('a 5xx answer to an order is unavailable (outcome unknown), never resent', async (t) => {
  const broker = await paperBroker(t)
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  broker.interfere('order/placeOSO', { kind: 'server_error' })
  await t.rejects(session.placeBracket({ tag: 'rec-5xx', contract, action: 'Buy', quantity: 1, entryType: 'Limit', entryPrice: '20000', stopPrice: '19990', targetPrice: null }), { kind: 'unavailable', message: /outcome is unknown/ })
  t.equal(broker.requests.filter((request) => request.endpoint === 'order/placeOSO').length, 1)
})
