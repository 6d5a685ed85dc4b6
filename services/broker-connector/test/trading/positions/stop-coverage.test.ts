import t from 'tap'
import type { BrokerFill, BrokerOrder, BrokerOrderVersion } from '../../../src/feeds/broker/broker-adapter.ts'
import { marketCloses, stopCoverage } from '../../../src/trading/positions/stop-coverage.ts'
import { eventually, identityHeaders, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { discrepancies, reconcilingTrader } from './reconcile-helper.ts'

// "What the page shows about a position is what the broker holds, and where they differ the trader is told":
// the working stops closing a position (the whole-position stop plus each target's stop) are added up against
// the position held, on the Positions page and by the reconciler (docs/decisions/targets-breakeven.md).

const stopsDiffer = async (db: Parameters<typeof discrepancies>[0]) => (await discrepancies(db)).filter((row) => row.kind === 'stops_differ')

t.test('a position whose stops close fewer or more contracts than held is told on the page and by the reconciler, until they match', async (t) => {
  const { app, db, config } = await reconcilingTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 5)
  const stop = Number((await tradeOfRecord(db, record.id))!.stop_order_id)
  const page = async () => (await app.inject({ method: 'GET', url: '/api/broker/positions', headers: identityHeaders(config, 'u-0') })).json()
  await eventually(async () => (await page()).session?.positions?.[0]?.stopQuantity === 5)
  t.match((await page()).session.positions, [{ quantity: 5, stopQuantity: 5, stopNote: null }], 'the OSO\'s stop covers the 5 held')
  t.same(await stopsDiffer(db), [], 'nothing told while they match')

  const session = app.feeds.session('u-0')!
  await session.resizeOrder(stop, 3)
  await eventually(async () => (await stopsDiffer(db)).length === 1, 10_000)
  t.match(await stopsDiffer(db), [{ broker_qty: 5, our_qty: 5, resolved_at: null, reason: /MNQZ6: 2 of the 5 contract\(s\) held have no working stop at the broker \(stops cover 3\)/ }])
  t.match((await page()).session.positions, [{ stopQuantity: 3, stopNote: /2 of the 5 contract\(s\) held have no working stop/ }], 'the page says so too')

  await session.resizeOrder(stop, 7)
  await eventually(async () => /more than the 5 held/.test((await stopsDiffer(db))[0]?.reason ?? ''), 10_000)
  t.match(await stopsDiffer(db), [{ resolved_at: null, reason: /close 7 contract\(s\), more than the 5 held: if they all trigger, they open a short position of 2/ }], 'over-covered: one open row, updated')

  await session.resizeOrder(stop, 5)
  await eventually(async () => (await stopsDiffer(db)).every((row) => row.resolved_at !== null), 10_000)
  t.match((await page()).session.positions, [{ stopQuantity: 5, stopNote: null }])
})

t.test('a Market close counts from the moment the broker accepts it, a stop only while it works', async (t) => {
  const held = { contractId: 7, netPos: 5 }
  const order = (id: number, status: BrokerOrder['status'], action: BrokerOrder['action'] = 'Sell'): BrokerOrder => ({ id, accountId: 1, contractId: 7, action, status, tag: null, parentId: null, text: null })
  const versions = new Map<number, BrokerOrderVersion>([
    [1, { orderType: 'Market', quantity: 2, price: null, stopPrice: null }],
    [2, { orderType: 'Market', quantity: 3, price: null, stopPrice: null }],
    [3, { orderType: 'Market', quantity: 4, price: null, stopPrice: null }],
    [4, { orderType: 'Stop', quantity: 5, price: null, stopPrice: '20900' }],
    [5, { orderType: 'Stop', quantity: 5, price: null, stopPrice: '20900' }],
  ])
  const fills: BrokerFill[] = [{ id: 90, orderId: 2, contractId: 7, action: 'Sell', quantity: 1, price: '21000', timestamp: '2026-11-27T15:00:00Z' }]
  // 1 just accepted (2 left), 2 working with 1 of 3 filled (2 left), 3 done; a Buy would not close a long.
  const orders = [order(1, 'PendingNew'), order(2, 'Working'), order(3, 'Filled'), order(6, 'Working', 'Buy'), order(4, 'Suspended'), order(5, 'Working')]
  t.equal(marketCloses(held, orders, versions, fills), 4, 'the accepted close and the working one\'s rest')
  t.equal(stopCoverage(held, orders, versions, fills).stopQuantity, 5, 'the suspended stop (a leg of an entry not filled) closes nothing yet')
})
