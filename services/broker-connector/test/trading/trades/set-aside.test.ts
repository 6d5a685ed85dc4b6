import t from 'tap'
import { Writable } from 'node:stream'
import { createDb } from '@signals/db'
import { freePort } from '@signals/test-support'
import type { BrokerSession } from '../../../src/feeds/broker/broker-adapter.ts'
import type { Config } from '../../../src/config.ts'
import { TradeKeeper } from '../../../src/trading/trades/trade-keeper.ts'
import { eventually, makeAlert, publishAlert } from '../../helper.ts'
import { statusOf } from '../../feeds/feed-helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

// Issue 20, item 5: one bad event is logged and set aside; it never stops a session from opening. Before,
// a snapshot fill that failed to apply made the session-open hook throw: the session was closed and
// retried for ever, and the trader's feed never came back.

function logLines() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { lines, stream }
}

t.test('a fill that violates a constraint is logged and set aside, live and in the snapshot; the session opens and the status says so', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  broker.setPrice('MESZ6', '6000')
  const logs = logLines()
  const { app, db, config } = await tradingApp(t, broker, { LOG_LEVEL: 'info' as Config['LOG_LEVEL'], FEED_STATUS_REFRESH_MS: '500' }, { loggerStream: logs.stream })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: { limits: { maxOpenTrades: 5 } } })
  await connect(app, 'u-0')

  // A first trade, opened from its fill as usual.
  const first = mnqEntry()
  await publishAlert(app, first)
  const firstRecord = await settledRecord(db, first.alertId)
  await eventually(async () => (await tradeOfRecord(db, firstRecord.id)) !== undefined)
  // A second entry, in another contract, waits below the market (a buy limit at 5990; 10 points at $5 a
  // point is $50 a contract, 10 contracts for the $500 budget, bounded by the default per-order cap of 5).
  const second = makeAlert({ symbol: 'MES1!', root: 'MES', action: 'LONG', entryPrice: 5990, sl: 5980, tp: 6010, raw: { orderType: 'limit' } })
  await publishAlert(app, second)
  const secondRecord = await settledRecord(db, second.alertId)
  t.match(secondRecord, { status: 'placed' })
  // The damage: the first trade now claims the second entry's broker order id, so the second entry's fill
  // cannot open its trade (the order id is unique for the account).
  await db.updateTable('trades').set({ entry_order_id: secondRecord.entry_order_id }).where('alert_record_id', '=', firstRecord.id).execute()

  broker.setPrice('MESZ6', '5990')
  const setAside = () => db.selectFrom('broker_events_set_aside').selectAll().execute()
  await eventually(async () => (await setAside()).length === 1)
  const [row] = await setAside()
  const fill = broker.fills().find((candidate) => candidate.orderId === secondRecord.entry_order_id)
  t.match(row, { user_id: 'u-0', broker: 'paper', environment: 'demo', broker_account_id: 9000, entity_type: 'fill', entity_id: fill?.id, order_id: secondRecord.entry_order_id, times: 1 })
  t.match(row?.reason, /trades_entry_order_key/, 'the reason is the database\'s')
  t.match(row?.event, { id: fill?.id, orderId: secondRecord.entry_order_id, price: '5990', quantity: 5 })
  t.ok(logs.lines.some((line) => line.msg === 'broker event set aside' && line.fillId === fill?.id && line.orderId === secondRecord.entry_order_id), 'logged with the ids')
  await eventually(async () => /1 broker event could not be applied/.test((await statusOf(app, 'u-0'))?.detail ?? ''))

  // A reconnect replays the day's fills: the bad one is set aside again, and the session opens.
  const before = app.feeds.session('u-0')
  broker.dropConnections()
  await eventually(() => app.feeds.session('u-0') !== null && app.feeds.session('u-0') !== before, 15_000)
  t.pass('the session reopened despite the bad fill in its snapshot')
  await eventually(async () => (await setAside())[0]?.times === 2)
  t.equal((await setAside()).length, 1, 'one row per event, however often it is replayed')
  const status = await statusOf(app, 'u-0')
  t.match(status, { state: 'connected', detail: 'account DEMO9000; 1 broker event could not be applied and was set aside (support can see why)' })
  t.equal(await tradeOfRecord(db, secondRecord.id), undefined, 'no trade was made up for it')

  // The session works: the first trade's target still closes it.
  broker.setPrice('MNQZ6', '21100')
  await eventually(async () => (await tradeOfRecord(db, firstRecord.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, firstRecord.id), { result: 'TP' })
})

t.test('Postgres down while the snapshot is replayed is waited out, never set aside', async (t) => {
  const port = await freePort()
  const db = createDb({ connectionString: `postgres://postgres@127.0.0.1:${port}/nothing`, max: 1 })
  t.teardown(() => db.destroy())
  const warnings: unknown[] = []
  const keeper = new TradeKeeper({ db, logger: { info: () => undefined, warn: (object: unknown) => warnings.push(object) } })
  const order = { id: 5, accountId: 9000, contractId: 3003611, action: 'Buy' as const, status: 'Filled' as const, tag: 'sig-1', parentId: null, text: null }
  const session = {
    snapshot: { account: { id: 9000, name: 'DEMO9000' }, orders: [order], fills: [{ id: 6, orderId: 5, contractId: 3003611, action: 'Buy' as const, quantity: 1, price: '21000', timestamp: '2026-11-23T10:00:00Z' }], positions: [], cashBalance: '50000' },
    listOrders: async () => [order],
  } as unknown as BrokerSession
  await t.rejects(keeper.sessionOpened('u-0', session, { broker: 'paper', environment: 'demo' }), { code: 'ECONNREFUSED' }, 'the session open fails (and is retried), the fill kept for the next snapshot')
  t.equal(keeper.setAsideCount('u-0'), 0, 'nothing set aside')
})
