import t from 'tap'
import { connectBus } from '@signals/bus'
import { createDb, sql } from '@signals/db'
import { createTestDatabase, deleteNamespaceStreams, freePort, testNamespace, TEST_NATS_URL } from '@signals/test-support'
import { exited, spawnConnector, waitReady } from './connector-process.ts'
import { alertContract, countRows, eventually, makeAlert, seedUsers } from './helper.ts'

const USERS = 10
const ENTRY_ALERTS = 400
const TRADES = 100

t.test('a connector process killed mid-stream and restarted leaves exactly one record per alert and user', async (t) => {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const namespace = testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const db = createDb({ connectionString: database.url })
  t.teardown(() => db.destroy())
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'kill-test', namespace })
  t.teardown(() => bus.close())

  await seedUsers(db, USERS, { prefix: 'live' })
  await sql`INSERT INTO trades (user_id, symbol, side, quantity, entry_price)
    SELECT 'live-' || (g % ${USERS}::int), 'SYM' || g, CASE WHEN g % 2 = 0 THEN 'LONG' ELSE 'SHORT' END, 1, 100
    FROM generate_series(0, ${TRADES - 1}::int) g`.execute(db)

  const port = await freePort()
  const env = {
    DATABASE_URL: database.url,
    BUS_NAMESPACE: namespace,
    NATS_URL: TEST_NATS_URL,
    BROKER_CONNECTOR_PORT: String(port),
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    CONSUMER_ACK_WAIT_MS: '2000',
  }
  let child = spawnConnector(env)
  t.teardown(async () => {
    child.kill('SIGKILL')
    await exited(child)
  })
  await waitReady(port)

  const entries = Array.from({ length: ENTRY_ALERTS }, () => makeAlert())
  const results = Array.from({ length: TRADES }, (_, i) =>
    makeAlert({ kind: 'result', symbol: `SYM${i}`, root: null, result: 'TP', exitPrice: 101.5, action: null, entryPrice: null, userId: null }),
  )
  const publishing = (async () => {
    for (let i = 0; i < ENTRY_ALERTS; i++) {
      await bus.publish('alerts.entry', alertContract, entries[i]!, { messageId: entries[i]!.alertId })
      if (i < TRADES) await bus.publish('alerts.result', alertContract, results[i]!, { messageId: results[i]!.alertId })
    }
  })()

  const total = ENTRY_ALERTS * USERS
  const records = sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts`
  await eventually(async () => (await countRows(db, records)) >= total / 10, 30_000)
  child.kill('SIGKILL')
  await exited(child)
  const atKill = await countRows(db, records)
  t.ok(atKill < total, `killed mid-stream (${atKill} of ${total} records written)`)
  await publishing

  child = spawnConnector(env)
  await waitReady(port)
  await eventually(async () => (await countRows(db, records)) === total, 60_000)
  await eventually(async () => (await countRows(db, sql<{ count: number }>`SELECT count(*)::int AS count FROM alerts WHERE status = 'not_placed'`)) === total, 30_000)
  await eventually(async () => (await countRows(db, sql<{ count: number }>`SELECT count(*)::int AS count FROM trades WHERE status = 'closed'`)) === TRADES, 30_000)

  const perPair = await sql<{ alert_id: string; user_id: string; n: number }>`
    SELECT alert_id, user_id, count(*)::int AS n FROM alerts GROUP BY alert_id, user_id`.execute(db)
  t.equal(perPair.rows.length, total, 'every (alert, live user) pair present')
  t.ok(perPair.rows.every((row) => row.n === 1), 'none twice')
  const alertIds = new Set(perPair.rows.map((row) => row.alert_id))
  t.ok(entries.every((alert) => alertIds.has(alert.alertId)), 'no alert lost')
  const trades = await db.selectFrom('trades').select(['symbol', 'pnl', 'side', 'close_alert_id', 'result']).execute()
  const closer = new Map(results.map((alert) => [alert.symbol, alert.alertId]))
  t.ok(trades.every((trade) => trade.close_alert_id === closer.get(trade.symbol) && trade.result === 'TP'), 'each trade closed by its own result alert')
  t.ok(trades.every((trade) => trade.pnl === (trade.side === 'LONG' ? '1.50' : '-1.50')), 'pnl applied once')
})
