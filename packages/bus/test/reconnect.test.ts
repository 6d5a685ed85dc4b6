import t from 'tap'
import { startPrivateNats } from '@signals/test-support'
import { BusUnavailableError, connectBus } from '../src/index.ts'
import { Ping, eventually } from './helper.ts'

t.test('with the server down, publish fails fast; after it returns, publish and consume resume', async (t) => {
  const server = await startPrivateNats()
  t.teardown(() => server.destroy())
  const bus = await connectBus({ url: server.url, name: 'reconnect-test' })
  t.teardown(() => bus.close())
  const received: number[] = []
  await bus.consume({
    stream: 'ALERTS',
    durable: 'reconnect',
    subject: 'alerts.entry',
    contract: Ping,
    handler: async (payload) => {
      received.push(payload.n)
    },
  })
  await bus.publish('alerts.entry', Ping, { version: 1, n: 1 }, { messageId: 'before' })
  await eventually(() => received.length === 1)

  await server.stop()
  await eventually(() => !bus.isConnected())
  t.equal(await bus.ping(300), false, 'ping reports the server down')
  const started = Date.now()
  await t.rejects(bus.publish('alerts.entry', Ping, { version: 1, n: 2 }, { messageId: 'during', timeoutMs: 500 }), BusUnavailableError)
  t.ok(Date.now() - started < 2_000, 'the failed publish answered within its time-out')

  await server.start()
  await eventually(() => bus.isConnected(), 15_000)
  await bus.publish('alerts.entry', Ping, { version: 1, n: 3 }, { messageId: 'after' })
  await eventually(() => received.includes(3), 15_000)
  t.ok(await bus.ping())
  // At least once: an ack gathered but not yet written when the server stopped is a redelivery of 1, as a crash would be.
  t.same([...new Set(received)], [1, 3], 'the stream kept its messages across the restart (file storage), and the refused publish is not among them')
})
