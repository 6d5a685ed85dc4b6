import t from 'tap'
import { DeadLetterV1, contract } from '@signals/contracts'
import { BusUnavailableError, ContractViolationError, PermanentError } from '../src/index.ts'
import { Ping, acknowledgedUpTo, eventually, testBus } from './helper.ts'

const DeadLetter = contract(DeadLetterV1)

t.test('streams are created once and re-ensuring them is harmless', async (t) => {
  const bus = await testBus(t)
  const names: string[] = []
  for await (const name of bus.jsm.streams.names()) if (name.startsWith(bus.stream(''))) names.push(name)
  t.same(names.sort(), ['ALERTS', 'DEAD_LETTERS', 'FEEDS', 'INTAKE', 'NOTIFICATIONS'].map((n) => bus.stream(n)))
  const { ensureStreams } = await import('../src/index.ts')
  await ensureStreams(bus.jsm, bus.ns)
  const info = await bus.jsm.streams.info(bus.stream('ALERTS'))
  t.same(info.config.subjects, ['alerts.entry', 'alerts.result', 'alerts.test'].map((s) => bus.subject(s)))
  t.ok(info.config.duplicate_window > 0, 'the stream has a duplicate window')
})

t.test('publish resolves after the ack; a consumer receives the validated message and acks it', async (t) => {
  const bus = await testBus(t)
  const received: number[] = []
  await bus.consume({
    stream: 'ALERTS',
    durable: 'test-entry',
    subject: 'alerts.entry',
    contract: Ping,
    handler: async (payload) => {
      received.push(payload.n)
    },
  })
  const result = await bus.publish('alerts.entry', Ping, { version: 1, n: 1 }, { messageId: 'm-1' })
  t.equal(result.duplicate, false)
  t.ok(result.sequence >= 1)
  await eventually(() => received.length === 1)
  t.same(received, [1])
  await eventually(async () => (await bus.jsm.consumers.info(bus.stream('ALERTS'), 'test-entry')).num_ack_pending === 0)
})

t.test('a message id published twice is stored once', async (t) => {
  const bus = await testBus(t)
  const first = await bus.publish('alerts.entry', Ping, { version: 1, n: 7 }, { messageId: 'same' })
  const second = await bus.publish('alerts.entry', Ping, { version: 1, n: 7 }, { messageId: 'same' })
  t.equal(first.duplicate, false)
  t.equal(second.duplicate, true)
  const info = await bus.jsm.streams.info(bus.stream('ALERTS'))
  t.equal(info.state.messages, 1)
})

t.test('publishes started together are all acknowledged, each with its own sequence', async (t) => {
  const bus = await testBus(t)
  const acks = await Promise.all(Array.from({ length: 300 }, (_, n) => bus.publish('alerts.entry', Ping, { version: 1, n }, { messageId: `burst-${n}` })))
  t.same(acks.map((ack) => ack.duplicate), acks.map(() => false))
  t.equal(new Set(acks.map((ack) => ack.sequence)).size, 300, 'three hundred distinct stream sequences')
  t.equal((await bus.jsm.streams.info(bus.stream('ALERTS'))).state.messages, 300)
})

t.test('a subject no stream takes is refused at once; a publish after close is refused', async (t) => {
  const bus = await testBus(t)
  const started = Date.now()
  await t.rejects(bus.publishRaw(bus.subject('nowhere.at.all'), new Uint8Array([1]), { messageId: 'lost', timeoutMs: 5_000 }), BusUnavailableError)
  t.ok(Date.now() - started < 2_000, 'the server said so (no responders) instead of the time-out running out')
  await bus.close()
  await t.rejects(bus.publish('alerts.entry', Ping, { version: 1, n: 1 }, { messageId: 'late' }), BusUnavailableError)
})

t.test('an answer that is not a stored-message ack is a refusal, with the reason the server gave', async (t) => {
  const bus = await testBus(t)
  // A plain responder stands in for a misbehaving stream: whatever it answers comes back as the ack.
  const answers = new Map([['not-json', 'null'], ['refused', '{"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"}}']])
  const responder = bus.nc.subscribe(bus.subject('fake.stream.*'), {
    callback: (_error, msg) => {
      msg.respond(answers.get(msg.subject.split('.').pop() ?? '') ?? '')
    },
  })
  t.teardown(() => responder.unsubscribe())
  await bus.nc.flush()
  await t.rejects(bus.publishRaw(bus.subject('fake.stream.not-json'), new Uint8Array([1]), { messageId: 'a' }), { name: 'BusUnavailableError', message: /malformed ack/ })
  await t.rejects(bus.publishRaw(bus.subject('fake.stream.refused'), new Uint8Array([1]), { messageId: 'b' }), { name: 'BusUnavailableError', message: /maximum messages exceeded \(503\)/ })
})

t.test('publishing a payload that breaks its contract is refused before it reaches the bus', async (t) => {
  const bus = await testBus(t)
  await t.rejects(
    bus.publish('alerts.entry', Ping, { version: 1, n: 1.5 } as never, { messageId: 'bad' }),
    ContractViolationError,
  )
  const info = await bus.jsm.streams.info(bus.stream('ALERTS'))
  t.equal(info.state.messages, 0)
})

t.test('a failing handler gets the message again after a nak, with growing delay', async (t) => {
  const bus = await testBus(t)
  const attempts: { count: number; at: number }[] = []
  await bus.consume({
    stream: 'ALERTS',
    durable: 'test-retry',
    subject: 'alerts.entry',
    contract: Ping,
    backoff: { initialMs: 100, maxMs: 1_000 },
    handler: async (_payload, context) => {
      attempts.push({ count: context.deliveryCount, at: Date.now() })
      if (context.deliveryCount < 3) throw new Error('database is down')
    },
  })
  const { sequence } = await bus.publish('alerts.entry', Ping, { version: 1, n: 1 }, { messageId: 'retry-1' })
  await eventually(() => attempts.length === 3)
  t.same(attempts.map((a) => a.count), [1, 2, 3])
  const firstGap = attempts[1]!.at - attempts[0]!.at
  const secondGap = attempts[2]!.at - attempts[1]!.at
  t.ok(firstGap >= 70, `first retry waited (${firstGap} ms)`)
  t.ok(secondGap > firstGap, `second retry waited longer (${secondGap} ms > ${firstGap} ms)`)
  // Acknowledged at the server: it delivers the message no more.
  await acknowledgedUpTo(bus, 'ALERTS', 'test-retry', sequence)
  t.equal(attempts.length, 3, 'no further delivery after success')
})

t.test('a message that keeps failing goes to the dead-letter subject with its reason', async (t) => {
  const bus = await testBus(t)
  let attempts = 0
  await bus.consume({
    stream: 'ALERTS',
    durable: 'test-dlq',
    subject: 'alerts.result',
    contract: Ping,
    maxAttempts: 3,
    backoff: { initialMs: 20, maxMs: 50 },
    handler: async () => {
      attempts++
      throw new Error('trade table is locked')
    },
  })
  const letters: unknown[] = []
  await bus.consume({
    stream: 'DEAD_LETTERS',
    durable: 'test-dlq-reader',
    subject: 'dlq.alerts.result',
    contract: DeadLetter,
    handler: async (letter) => {
      letters.push(letter)
    },
  })
  const { sequence } = await bus.publish('alerts.result', Ping, { version: 1, n: 9 }, { messageId: 'poison' })
  await eventually(() => letters.length === 1)
  t.equal(attempts, 3, 'tried exactly maxAttempts times')
  t.match(letters[0], {
    subject: 'alerts.result',
    deliveryCount: 3,
    reason: /failed 3 times; last error: trade table is locked/,
    body: JSON.stringify({ version: 1, n: 9 }),
    messageId: 'poison',
  })
  // Terminated at the server (a TERM it did not understand would leave it awaiting an ack, to come again).
  await acknowledgedUpTo(bus, 'ALERTS', 'test-dlq', sequence)
  t.equal(attempts, 3, 'the dead-lettered message is not delivered again')
})

t.test('a dependency outage never uses the delivery budget: the message waits and is handled once it answers', async (t) => {
  const bus = await testBus(t)
  const outageDeliveries = 6
  let attempts = 0
  const handled: number[] = []
  await bus.consume({
    stream: 'ALERTS',
    durable: 'test-outage',
    subject: 'alerts.result',
    contract: Ping,
    maxAttempts: 2,
    backoff: { initialMs: 20, maxMs: 50 },
    handler: async (payload) => {
      attempts++
      if (attempts <= outageDeliveries) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })
      handled.push(payload.n)
    },
  })
  const { sequence } = await bus.publish('alerts.result', Ping, { version: 1, n: 5 }, { messageId: 'outage' })
  await acknowledgedUpTo(bus, 'ALERTS', 'test-outage', sequence)
  t.same(handled, [5], 'handled once the dependency answered')
  t.equal(attempts, outageDeliveries + 1, `delivered past the budget of 2 (${attempts} times)`)
  const deadLetters = await bus.jsm.streams.info(bus.stream('DEAD_LETTERS'))
  t.equal(deadLetters.state.messages, 0, 'nothing was dead-lettered')
})

t.test('a PermanentError or a contract violation dead-letters at once', async (t) => {
  const bus = await testBus(t)
  let attempts = 0
  await bus.consume({
    stream: 'ALERTS',
    durable: 'test-permanent',
    subject: 'alerts.test',
    contract: Ping,
    handler: async () => {
      attempts++
      throw new PermanentError('symbol is not tradable')
    },
  })
  const letters: { reason: string }[] = []
  await bus.consume({
    stream: 'DEAD_LETTERS',
    durable: 'test-permanent-reader',
    subject: 'dlq.alerts.test',
    contract: DeadLetter,
    handler: async (letter) => {
      letters.push(letter)
    },
  })
  await bus.publish('alerts.test', Ping, { version: 1, n: 1 }, { messageId: 'p1' })
  // Bypass the publish-side check to put a malformed body on the subject.
  await bus.publishRaw(bus.subject('alerts.test'), new TextEncoder().encode('{"version":2}'), { messageId: 'p2' })
  await bus.publishRaw(bus.subject('alerts.test'), new TextEncoder().encode('not json'), { messageId: 'p3' })
  await eventually(() => letters.length === 3)
  t.equal(attempts, 1, 'only the well-formed message reached the handler')
  t.same(letters.map((l) => l.reason.split(':')[0]).sort(), ['body is not JSON', 'contract violation', 'symbol is not tradable'])
})

t.test('two instances on one durable consumer share the work: each message handled once', async (t) => {
  const first = await testBus(t)
  const { connectBus } = await import('../src/index.ts')
  const second = await connectBus({ url: 'nats://127.0.0.1:4222', name: 'bus-test-2', namespace: first.ns.prefix })
  t.teardown(() => second.close())
  const seen = new Map<number, number>()
  const handler = async (payload: { n: number }) => {
    seen.set(payload.n, (seen.get(payload.n) ?? 0) + 1)
  }
  for (const bus of [first, second]) {
    await bus.consume({ stream: 'ALERTS', durable: 'shared', subject: 'alerts.entry', contract: Ping, handler })
  }
  const acks = await Promise.all(
    Array.from({ length: 200 }, (_, n) => first.publish('alerts.entry', Ping, { version: 1, n }, { messageId: `s-${n}` })),
  )
  await eventually(() => seen.size === 200)
  // Every message acknowledged at the server, none delivered twice: no handler can still be running one.
  const info = await acknowledgedUpTo(first, 'ALERTS', 'shared', Math.max(...acks.map((ack) => ack.sequence)))
  t.equal(info.delivered.consumer_seq, 200, 'two hundred deliveries for two hundred messages: none delivered twice')
  t.equal([...seen.values()].filter((count) => count !== 1).length, 0, 'no message handled twice')
})
