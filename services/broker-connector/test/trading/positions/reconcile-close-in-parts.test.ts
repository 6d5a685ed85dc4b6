import t from 'tap'
import { seen } from '../../broker-controls.ts'
import { eventually, publishAlert } from '../../helper.ts'
import { discrepancies, reconcilingTrader } from './reconcile-helper.ts'
import { mnqExit, netMnq, openedTrade } from './exit-helper.ts'
import { mnqEntry, settledRecord } from '../../trading-helper.ts'

// The order-path model's seed 514173193 (docs/decisions/targets-breakeven.md): a partial close (a Market order)
// filling in parts, its stops cut for it beforehand, was told by the reconciliation as "1 of the 1 contract(s)
// held have no working stop at the broker" (stops_differ) while the close still had that contract to take.
// A Market close on its way takes its contracts: the room for a new stop counts it so (room-at-broker.ts), the
// stops check did not. The paper broker fills 1 lot per price event here, and the market does not move.

t.test('a partial close filling in parts: the contracts it has still to take are not told as without a stop', async (t) => {
  const { broker, app, db } = await reconcilingTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await app.trading.keeper.idle()
  broker.setLiquidity('MNQZ6', 1)
  await publishAlert(app, mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } }))
  const close = () => broker.orders().find((order) => order.clOrdId?.startsWith('pc-'))
  await eventually(() => close()?.filledQty === 1)
  t.match(close(), { ordStatus: 'Working', orderQty: 2, filledQty: 1 }, 'the close has 1 contract still to take')
  t.equal(netMnq(broker), 4)
  t.equal(broker.orders().find((order) => order.clOrdId === `sig-${record.id}.sl`)?.orderQty, 3, 'the stop covers the 3 the close leaves')
  // Told only when two passes in a row find it: three passes listing the orders from here.
  const lists = seen(broker, 'command/list')
  await eventually(() => seen(broker, 'command/list') >= lists + 3, 10_000)
  t.same((await discrepancies(db)).map((row) => `${row.kind}: ${row.reason}`), [], 'nothing told')
})
