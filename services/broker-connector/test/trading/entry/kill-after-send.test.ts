import t from 'tap'
import { connectBus } from '@signals/bus'
import { loadConfig } from '@signals/config'
import { createDb } from '@signals/db'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, TEST_NATS_URL } from '@signals/test-support'
import { ConfigSchema } from '../../../src/config.ts'
import { alertContract, eventually } from '../../helper.ts'
import { exited, spawnConnector } from '../../connector-process.ts'
import { mnqEntry, recordOf, tradeOfRecord } from '../../trading-helper.ts'
import { brokerUnderTest, forEachBroker, liveTraderOn } from '../../brokers-under-test.ts'

// The exactly-once kill, against both paper brokers (issue 23, item 6).
forEachBroker(t, 'killed after the order reached the broker and before it was recorded: on restart it is found by its tag, never sent again', async (t, kind) => {
  const broker = await brokerUnderTest(t, kind)
  const place = broker.placeEndpoint
  broker.setPrice('MNQZ6', '21000')
  // The order is carried out at once; its answer is held, so the connector is killed before it can record it.
  broker.delay(place, 30_000)

  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'kill-after-send', namespace })
  t.teardown(() => bus.close())
  const port = await freePort()
  const env = {
    DATABASE_URL: database.url, BUS_NAMESPACE: namespace, NATS_URL: TEST_NATS_URL, BROKER_CONNECTOR_PORT: String(port), LOG_LEVEL: 'error',
    NODE_ENV: 'test', CONSUMER_ACK_WAIT_MS: '2000', ...broker.env,
  }
  const config = loadConfig(ConfigSchema, { ...process.env, ...env })
  await liveTraderOn(db, config, broker, 'u-0')

  let child = spawnConnector(env)
  t.teardown(async () => {
    child.kill('SIGKILL')
    await exited(child)
  })
  await eventually(() => broker.sessions().includes('trader0'), 30_000)

  const alert = mnqEntry()
  await bus.publish('alerts.entry', alertContract, alert, { messageId: alert.alertId })
  await eventually(() => broker.seen(place) === 1, 15_000)
  child.kill('SIGKILL')
  await exited(child)
  const atKill = await recordOf(db, alert.alertId)
  t.match(atKill, { status: 'placing', send_attempts: 1, entry_order_id: null }, 'killed between send and record: the send was marked, its outcome not')
  const tag = `sig-${atKill.id}`
  t.equal(broker.orders().filter((order) => order.clOrdId === tag).length, 1, 'the order is at the broker')

  broker.delay(place, 0)
  await eventually(() => broker.sessions().length === 0, 15_000)
  child = spawnConnector(env)
  await eventually(async () => (await recordOf(db, alert.alertId)).status === 'placed', 30_000)
  const record = await recordOf(db, alert.alertId)
  const entries = broker.orders().filter((order) => order.clOrdId === tag)
  t.equal(entries.length, 1, 'exactly one entry order at the broker')
  t.match(record, { status: 'placed', send_attempts: 1, entry_order_id: entries[0]?.id, order_quantity: 5 }, 'recorded as placed with the broker\'s ids, not sent again')
  t.ok(record.stop_order_id && record.target_order_id, 'legs found by their tags')
  t.equal(broker.seen(place), 1, 'the restarted connector sent nothing')
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined, 15_000)
  t.match(await tradeOfRecord(db, record.id), { quantity: '5.0000', entry_price: '21000.00000000', status: 'open' }, 'the trade opened from the fill in the new session\'s snapshot')
})
