import t, { type Test } from 'tap'
import { startPaperBroker, type PaperBroker } from '../src/index.ts'
import { post, syncedSocket } from './wire-client.ts'

const account = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }
const oso = (tag: string) => ({
  accountSpec: 'DEMO70', accountId: 70, clOrdId: tag, action: 'Buy', symbol: 'MNQZ6', orderQty: 1, orderType: 'Market', isAutomated: true,
  bracket1: { action: 'Sell', clOrdId: `${tag}.sl`, orderType: 'Stop', stopPrice: 20950 },
})

async function setUp(t: Test, options: { devEndpoints?: boolean } = {}) {
  const broker = await startPaperBroker({ accounts: [account], heartbeatMs: 1_000, ...options })
  t.teardown(() => broker.close())
  broker.setPrice('MNQZ6', '21000')
  const base = broker.restUrl.replace(/\/v1$/, '')
  const control = async (body: unknown, path = '/dev/controls') => {
    const response = await post(`${base}${path}`, body)
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  return { broker, base, control }
}

const tagged = (broker: PaperBroker, tag: string) => broker.orders().filter((order) => order.clOrdId === tag).length

t.test('over HTTP: a placeOSO held late is not carried out or answered until released, then both', async (t) => {
  const { broker, base, control } = await setUp(t)
  t.match(await control({ endpoint: 'order/placeOSO', kind: 'late' }), { status: 200, body: { queued: { 'order/placeOSO': [{ kind: 'late' }] } } })
  const client = await syncedSocket(broker.restUrl, broker.wsUrl, account)
  t.teardown(() => client.socket.close())
  const held = client.send('order/placeOSO', oso('sig-1'))
  await t.resolves(async () => {
    for (;;) {
      const state = (await (await fetch(`${base}/dev/controls`)).json()) as { held: Record<string, number> }
      if (state.held['order/placeOSO'] === 1) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }, 'GET /dev/controls shows the request held')
  // A request sent after the held one is answered: the socket is not stuck.
  t.match(await client.answer(client.send('order/list', null)), { s: 200, d: [] }, 'nothing carried out yet')
  t.equal(client.frames.filter((frame) => frame.includes(`"i":${held}`)).length, 0, 'no answer to the held request')
  t.same(await control({ endpoint: 'order/placeOSO' }, '/dev/controls/release'), { status: 200, body: { endpoint: 'order/placeOSO', released: 1 } })
  t.match(await client.answer(held), { s: 200, d: { orderId: Number } }, 'answered when carried out')
  t.equal(tagged(broker, 'sig-1'), 1, 'the order exists once')
  t.equal((await control({ endpoint: 'order/placeOSO' }, '/dev/controls/release')).body.released, 0, 'nothing left to release')
})

t.test('over HTTP: unanswered carries the request out at once and answers it afterMs later, or never', async (t) => {
  const { broker, control } = await setUp(t)
  await control({ endpoint: 'order/placeOSO', kind: 'unanswered', afterMs: 300 })
  await control({ endpoint: 'order/placeOSO', kind: 'unanswered' })
  const client = await syncedSocket(broker.restUrl, broker.wsUrl, account)
  t.teardown(() => client.socket.close())
  const late = client.send('order/placeOSO', oso('sig-3'))
  const never = client.send('order/placeOSO', oso('sig-4'))
  // A request sent after them is answered: both have been carried out by then.
  await client.answer(client.send('order/list', null))
  t.equal(tagged(broker, 'sig-3'), 1, 'carried out before its answer')
  t.equal(tagged(broker, 'sig-4'), 1, 'carried out, though never answered')
  t.equal(client.frames.filter((frame) => frame.includes(`"i":${late}`)).length, 0, 'no answer yet')
  t.match(await client.answer(late), { s: 200, d: { orderId: Number } }, 'answered afterMs later')
  t.equal(client.frames.filter((frame) => frame.includes(`"i":${never}`)).length, 0, 'the other never answered')
})

t.test('over HTTP: late with afterMs carries the request out by itself', async (t) => {
  const { broker, base, control } = await setUp(t)
  await control({ endpoint: 'order/placeOSO', kind: 'late', afterMs: 200 })
  const client = await syncedSocket(broker.restUrl, broker.wsUrl, account)
  t.teardown(() => client.socket.close())
  const scheduled = async () => ((await (await fetch(`${base}/dev/controls`)).json()) as { scheduled: Record<string, number> }).scheduled
  const held = client.send('order/placeOSO', oso('sig-2'))
  // A request sent after it is answered at once: the held one has been taken in by then.
  await client.answer(client.send('order/list', null))
  t.equal(tagged(broker, 'sig-2'), 0)
  t.same(await scheduled(), { 'order/placeOSO': 1 }, 'GET /dev/controls shows it scheduled')
  t.match(await client.answer(held), { s: 200, d: { orderId: Number } })
  t.equal(tagged(broker, 'sig-2'), 1)
  t.same(await scheduled(), {}, 'and no longer once carried out')
})

t.test('over HTTP: a 5xx with and without carrying the order out, and a dropped connection after carrying it out', async (t) => {
  const { broker, control } = await setUp(t)
  await control({ endpoint: 'order/placeOSO', kind: 'server_error', carriedOut: true })
  await control({ endpoint: 'order/placeOSO', kind: 'server_error', status: 500 })
  const client = await syncedSocket(broker.restUrl, broker.wsUrl, account)
  t.teardown(() => client.socket.close())
  t.same(await client.answer(client.send('order/placeOSO', oso('sig-3'))), { i: 3, s: 503, d: 'Service Unavailable' })
  t.equal(tagged(broker, 'sig-3'), 1, 'carried out, though the answer says 5xx')
  t.match(await client.answer(client.send('order/placeOSO', oso('sig-4'))), { s: 500 })
  t.equal(tagged(broker, 'sig-4'), 0, 'not carried out')

  await control({ endpoint: 'order/placeOSO', kind: 'drop' })
  const closed = new Promise((resolve) => client.socket.once('close', resolve))
  client.send('order/placeOSO', oso('sig-5'))
  await closed
  t.equal(tagged(broker, 'sig-5'), 1, 'carried out, then the connection was cut instead of answering')
})

t.test('over HTTP: a delay, a count, DELETE clears, and bad controls are a 400 that says what was wrong', async (t) => {
  const { broker, base, control } = await setUp(t)
  t.match(await control({ endpoint: 'order/list', kind: 'delay', ms: 50 }), { status: 200, body: { delays: { 'order/list': 50 } } })
  t.match(await control({ endpoint: 'contract/find', kind: 'rate_limit', count: 2 }), { body: { queued: { 'contract/find': [{ kind: 'rate_limit' }, { kind: 'rate_limit' }] } } })
  const cleared = await fetch(`${base}/dev/controls`, { method: 'DELETE' })
  t.same(await cleared.json(), { queued: {}, delays: {}, held: {}, scheduled: {} })
  for (const [body, text] of [
    [{ endpoint: 'order/nothing', kind: 'late' }, /^endpoint must be one of order\/placeOSO, /],
    [{ endpoint: 'order/placeOSO', kind: 'slow' }, 'kind must be one of penalty, captcha, rate_limit, server_error, late, unanswered, drop, delay'],
    [{ endpoint: 'order/placeOSO', kind: 'penalty' }, 'seconds must be a whole number from 1 to 3600'],
    [{ endpoint: 'order/placeOSO', kind: 'server_error', status: 404 }, 'status must be a whole number from 500 to 599'],
    [{ endpoint: 'order/placeOSO', kind: 'server_error', carriedOut: 'yes' }, 'carriedOut must be true or false'],
    [{ endpoint: 'order/placeOSO', kind: 'late', afterMs: -1 }, /^afterMs must be a whole number from 0 to 600000/],
    [{ endpoint: 'order/placeOSO', kind: 'delay' }, 'ms must be a whole number from 0 to 600000 (0 removes the delay)'],
    [{ endpoint: 'order/placeOSO', kind: 'drop', count: 0 }, 'count must be a whole number from 1 to 1000'],
    [{ endpoint: 'auth/accesstokenrequest', kind: 'late' }, 'late applies to real-time socket endpoints only'],
    [{ endpoint: 'auth/accesstokenrequest', kind: 'server_error', carriedOut: true }, 'carriedOut applies to real-time socket endpoints only'],
    [[], 'the body must be a JSON object {endpoint, kind, ...}'],
  ] as const) {
    const refused = await control(body)
    t.equal(refused.status, 400, JSON.stringify(body))
    t.match(refused.body, { errorText: text })
  }
  t.same((await control({ endpoint: 'nope' }, '/dev/controls/release')).status, 400)
  t.same((await (await fetch(`${base}/dev/controls`)).json()) as unknown, { queued: {}, delays: {}, held: {}, scheduled: {} }, 'nothing was set by the refused ones')
  t.equal(broker.requests.length, 0, 'controls are not broker requests')
})

t.test('without development endpoints there are no controls', async (t) => {
  const { base } = await setUp(t, { devEndpoints: false })
  t.equal((await post(`${base}/dev/controls`, { endpoint: 'order/placeOSO', kind: 'late' })).status, 404)
  t.equal((await fetch(`${base}/dev/controls`)).status, 404)
})

t.test('a pass queued before a refusal lets the first request through and refuses the second', async (t) => {
  const { broker } = await setUp(t)
  broker.interfere('order/placeOSO', { kind: 'pass' })
  broker.interfere('order/placeOSO', { kind: 'refusal', failureText: 'not this one' })
  const client = await syncedSocket(broker.restUrl, broker.wsUrl, account)
  t.teardown(() => client.socket.close())
  t.match(await client.answer(client.send('order/placeOSO', oso('sig-1'))), { s: 200, d: { orderId: Number } }, 'the first carried out')
  t.match(await client.answer(client.send('order/placeOSO', oso('sig-2'))), { s: 200, d: { failureText: 'not this one' } }, 'the second refused')
  t.equal(tagged(broker, 'sig-1'), 1)
  t.equal(tagged(broker, 'sig-2'), 0, 'the refused one was not carried out')
})
