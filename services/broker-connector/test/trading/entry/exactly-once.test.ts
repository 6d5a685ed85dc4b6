import t from 'tap'
import type { PaperBroker } from '@signals/dev-paper-broker'
import type { Database, Kysely } from '@signals/db'
import { buildInstance, drained, eventually, publishAlert } from '../../helper.ts'
import { Durables } from '../../../src/intake/plugin.ts'
import { connectedTraderOn, forEachBroker } from '../../brokers-under-test.ts'
import { connect, feedCommand, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

/** Entry orders at the broker per record tag (legs excluded). */
function entryOrdersByTag(broker: Pick<PaperBroker, 'orders'>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const order of broker.orders()) {
    const tag = order.clOrdId
    if (tag && /^sig-\d+$/.test(tag)) counts.set(tag, (counts.get(tag) ?? 0) + 1)
  }
  return counts
}

async function settledCount(db: Kysely<Database>) {
  const rows = await db.selectFrom('alerts').select('status').execute()
  return rows.filter((row) => row.status !== 'received' && row.status !== 'placing').length
}

// Against both paper brokers (issue 23, item 6); the others drive Tradovate's socket and penalty tickets.
forEachBroker(t, 'a redelivered entry (published again under other message ids) yields one order', async (t, kind) => {
  const { broker, app, db } = await connectedTraderOn(t, kind)
  const alert = mnqEntry()
  await publishAlert(app, alert, 'alerts.entry', 'first')
  const record = await settledRecord(db, alert.alertId)
  await publishAlert(app, alert, 'alerts.entry', 'second')
  await publishAlert(app, alert, 'alerts.entry', 'third')
  await drained(app, 'ALERTS', Durables.entry)
  t.equal(record.status, 'placed')
  t.same([...entryOrdersByTag(broker)], [[`sig-${record.id}`, 1]], 'one entry order, under the record\'s tag')
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  t.equal((await db.selectFrom('trades').select('id').execute()).length, 1, 'one trade')
})

t.test('a redelivery while the order is in flight waits for the holder: still one order', async (t) => {
  let inFlight = false
  const broker = await paperBroker(t, { onRequest: (request) => { if (request.endpoint === 'order/placeOSO') inFlight = true } })
  broker.setPrice('MNQZ6', '21000')
  broker.delay('order/placeOSO', 1_500)
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  const alert = mnqEntry()
  await publishAlert(app, alert, 'alerts.entry', 'first')
  await eventually(() => inFlight)
  await publishAlert(app, alert, 'alerts.entry', 'second')
  const record = await settledRecord(db, alert.alertId)
  await drained(app, 'ALERTS', Durables.entry)
  t.equal(record.status, 'placed')
  t.equal(record.send_attempts, 1, 'sent once')
  t.same([...entryOrdersByTag(broker).values()], [1])
})

t.test('two connector instances on one durable, sharing the sessions: every record at most one order', async (t) => {
  const broker = await paperBroker(t)
  for (const name of ['MNQZ6', 'MESZ6', 'M2KZ6', 'MYMZ6']) broker.setPrice(name, name === 'MYMZ6' ? '45000' : '21000')
  // Two shards: the instances split them, so records of one alert are settled here and at the other holder.
  const { app, db, config } = await tradingApp(t, broker, { FEED_SHARDS: '2' })
  const second = await buildInstance(t, config, { feeds: true })
  const users = ['u-0', 'u-1', 'u-2', 'u-3']
  for (const [i, userId] of users.entries()) await liveTrader(db, config, { userId, username: `trader${i}`, riskConfig: { limits: { maxOpenTrades: 10 } } })
  // Commands go to whichever instance consumes them; the holder of each user's shard opens the session.
  await eventually(() => app.feedLeases.heldShards().length === 1 && second.feedLeases.heldShards().length === 1)
  for (const userId of users) await feedCommand(app, userId, 'start')
  await eventually(() => users.every((userId) => (app.feeds.session(userId) !== null) !== (second.feeds.session(userId) !== null)))
  const symbols = [['MNQ1!', 'MNQ', 21000, 20950], ['MES1!', 'MES', 21000, 20990], ['M2K1!', 'M2K', 21000, 20990], ['MYM1!', 'MYM', 45000, 44900]] as const
  const alerts = symbols.map(([symbol, root, entry, stop]) => mnqEntry({ symbol, root, entryPrice: entry, sl: stop, tp: entry + 100 }))
  // Every alert through both instances under different message ids, so both handle copies of it.
  await Promise.all(alerts.flatMap((alert) => [publishAlert(app, alert, 'alerts.entry', `${alert.alertId}-a`), publishAlert(second, alert, 'alerts.entry', `${alert.alertId}-b`)]))
  await eventually(async () => (await settledCount(db)) === alerts.length * users.length, 30_000)
  const records = await db.selectFrom('alerts').select(['id', 'status', 'send_attempts', 'reason']).execute()
  const placed = records.filter((record) => record.status === 'placed')
  const orders = entryOrdersByTag(broker)
  t.ok(placed.length > 0, `${placed.length} of ${records.length} records placed`)
  t.ok([...orders.values()].every((count) => count === 1), 'no tag has two entry orders')
  t.equal(orders.size, placed.length, 'one entry order per placed record, none for the others')
  t.ok(records.every((record) => record.send_attempts <= 1), 'no record sent twice')
  t.ok(records.every((record) => record.status === 'placed' || record.reason !== null), 'every record not placed says why')
})

t.test('the socket dropped while the order is in flight: reconciled on the new session, placed once', async (t) => {
  let dropped = false
  const broker = await paperBroker(t, {
    onRequest: (request) => {
      if (request.endpoint === 'order/placeOSO' && !dropped) {
        dropped = true
        // The order is carried out; the connection dies before its answer is sent.
        setImmediate(() => broker.dropConnections())
      }
    },
  })
  broker.setPrice('MNQZ6', '21000')
  broker.delay('order/placeOSO', 500)
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  const alert = mnqEntry()
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId, 30_000)
  await drained(app, 'ALERTS', Durables.entry, 30_000)
  t.ok(dropped, 'the connection was dropped with the order in flight')
  t.match(record, { status: 'placed', send_attempts: 1 }, 'found by its tag, not sent again')
  t.same([...entryOrdersByTag(broker)], [[`sig-${record.id}`, 1]])
  t.equal(record.entry_order_id, broker.orders().find((order) => order.clOrdId === `sig-${record.id}`)?.id)
})

t.test('a penalty ticket on the order is waited out and the order resent with it: one order', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  broker.interfere('order/placeOSO', { kind: 'penalty', seconds: 1 })
  const { app, db, config } = await tradingApp(t, broker)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  const alert = mnqEntry()
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  t.match(record, { status: 'placed', send_attempts: 1 })
  t.ok(broker.requests.some((request) => request.endpoint === 'order/placeOSO' && request.ticket), 'resent with its ticket')
  t.same([...entryOrdersByTag(broker).values()], [1])
})
