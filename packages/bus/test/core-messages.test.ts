import t from 'tap'
import Type from 'typebox'
import { contract } from '@signals/contracts'
import { BusUnavailableError, ContractViolationError, isDependencyDown, publishNotice, requestByContract, serveByContract, subscribeNotices } from '../src/index.ts'
import { Ping, eventually, testBus } from './helper.ts'

const Pong = contract(Type.Object({ version: Type.Literal(1), doubled: Type.Integer() }, { additionalProperties: false }))
const quiet = { warn: () => undefined }
const texts = { answerer: 'test answerer', invalidRequest: 'not a Ping', failed: 'not answered' }

t.test('a request and its reply both hold to their contracts; the caller gets the typed reply', async (t) => {
  const bus = await testBus(t)
  const served = serveByContract(bus, 'test.double', { request: Ping, reply: Pong }, async ({ n }) => ({ version: 1 as const, doubled: n * 2 }), quiet, texts)
  t.teardown(() => served.unsubscribe())
  await bus.nc.flush()
  t.same(await requestByContract(bus, 'test.double', Ping, { version: 1, n: 21 }, Pong, 2_000), { version: 1, doubled: 42 })
})

t.test('a request that breaks its contract never leaves; one that reaches a server unchecked gets no reply it accepts', async (t) => {
  const bus = await testBus(t)
  const seen: unknown[] = []
  const served = serveByContract(bus, 'test.double', { request: Ping, reply: Pong }, async (request) => {
    seen.push(request)
    return { version: 1 as const, doubled: 0 }
  }, quiet, texts)
  t.teardown(() => served.unsubscribe())
  await bus.nc.flush()
  await t.rejects(requestByContract(bus, 'test.double', Ping, { version: 1, n: 'x' } as never, Pong, 2_000), ContractViolationError)
  // Sent raw (as a peer of another version might): the server answers empty, which is no reply.
  const raw = await bus.nc.request(bus.subject('test.double'), new TextEncoder().encode('{"version":1}'), { timeout: 2_000 })
  t.equal(raw.data.length, 0, 'an empty answer')
  t.same(seen, [], 'the handler never saw either')
})

t.test('a reply that breaks its contract is null; an answer that breaks its own is not sent', async (t) => {
  const bus = await testBus(t)
  const served = serveByContract(bus, 'test.bad', { request: Ping, reply: Ping }, async () => ({ version: 2 }) as never, quiet, texts)
  t.teardown(() => served.unsubscribe())
  await bus.nc.flush()
  t.equal(await requestByContract(bus, 'test.bad', Ping, { version: 1, n: 1 }, Pong, 2_000), null)
})

t.test('nobody answering is a dependency down (BusUnavailableError), which durable consumers wait out', async (t) => {
  const bus = await testBus(t)
  const error = await requestByContract(bus, 'test.nobody', Ping, { version: 1, n: 1 }, Pong, 300).catch((failure: unknown) => failure)
  t.type(error, BusUnavailableError)
  t.ok(isDependencyDown(error))
})

t.test('notices: a checked one is published and received with its subject; one that breaks its contract is refused or dropped', async (t) => {
  const bus = await testBus(t)
  const received: [number, string][] = []
  const dropped: unknown[] = []
  const subscription = subscribeNotices(bus, 'test.notice.*', Ping, (notice, subject) => received.push([notice.n, subject]), { warn: (object) => dropped.push(object) })
  t.teardown(() => subscription.unsubscribe())
  await bus.nc.flush()
  t.throws(() => publishNotice(bus, 'test.notice.a', Ping, { version: 1, n: 'x' } as never), ContractViolationError)
  bus.nc.publish(bus.subject('test.notice.b'), new TextEncoder().encode('{"version":1,"n":"not a number"}'))
  publishNotice(bus, 'test.notice.c', Ping, { version: 1, n: 3 })
  await eventually(() => received.length === 1 && dropped.length === 1)
  t.same(received, [[3, bus.subject('test.notice.c')]])
})
