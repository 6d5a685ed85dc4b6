import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { discrepancies, reconcilingTrader } from './reconcile-helper.ts'

// The order-path model's seed 514173193 (docs/decisions/targets-breakeven.md): a reconciliation pass listed
// the working orders, then a stop of the trade filled and the keeper closed the trade, then the pass read the
// trade closed beside the stop it had listed working: a stray_order ("sig-6.sl3 was working at the broker
// although its trade is closed", left working as the position had moved) for the stop that had closed the
// trade. Here the broker answers `order/list` late (`delay`: carried out at once, answered 3 s later), and the
// stop is filled once the pass's order list has been carried out: between the list and the pass's second read
// of the positions, every time.

t.test("a stop that fills while a pass's order list is on its way is not taken for a stray order", async (t) => {
  const { broker, app, db } = await reconcilingTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  const stop = broker.orders().find((order) => order.clOrdId === `sig-${record.id}.sl`)
  t.equal(stop?.ordStatus, 'Working', 'the bracket stop works')

  broker.delay('order/list', 3_000)
  // A pass lists the orders with their commands (`command/list` beside `order/list`): that list is carried out now.
  const seen = broker.requests.length
  const lists = () => broker.requests.slice(seen).filter((request) => request.endpoint === 'command/list').length
  await eventually(() => lists() >= 1, 10_000)
  broker.setPrice('MNQZ6', '20900')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed', 10_000)
  t.equal(broker.orders().find((order) => order.id === stop?.id)?.ordStatus, 'Filled', 'the stop closed the trade')
  // The next pass lists again only once that pass is done (one pass at a time).
  await eventually(() => lists() >= 2, 20_000)
  t.same((await discrepancies(db)).map((row) => `${row.kind}: ${row.reason}`), [], 'no difference told: the stop listed working had filled')
})
