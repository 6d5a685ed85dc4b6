import t from 'tap'
import { closedTrade } from '../../../trading/positions/exit-helper.ts'
import { tradeOfRecord } from '../../../trading-helper.ts'
import { legsWaitingForRetry } from './database-away.ts'
import { eventually, legOrdersOf, netMnq } from './helper.ts'

// Stop 38 (docs/decisions/projectx-adapter.md, "Stop 37's review", the MED left): a leg placed late (its
// placement waited for a retry) was sized to the plan's fills. The trade keeper had cut the still open trade
// meanwhile (here the trader's own sell of 2 on the platform, allocated to it): a stop for 5 while 3 were held,
// which at its price closes the 3 and opens a short of 2.

t.test('a trade cut before its legs could be placed gets legs for what it holds, not for what its entry filled', async (t) => {
  const { broker, db, record } = await legsWaitingForRetry(t)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 5)
  t.equal(legOrdersOf(broker, record.id).length, 0, 'no leg placed yet')
  // The trader sells 2 on the platform before the retry (5 s after the failure): the keeper cuts the trade to 3.
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 1, size: 2 })
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 3)
  t.equal(legOrdersOf(broker, record.id).length, 0, 'the trade cut before the retry')
  // The retry places both legs.
  await eventually(() => legOrdersOf(broker, record.id).length === 2, 15_000)
  t.same(
    legOrdersOf(broker, record.id).map((order) => [order.clOrdId, order.ordStatus, order.orderQty]).sort(),
    [[`sig-${record.id}.sl`, 'Working', 3], [`sig-${record.id}.tp`, 'Working', 3]],
    'each leg for the 3 held',
  )
  t.equal(netMnq(broker), 3, '3 held')
  // The stop price: the 3 closed, never a short.
  broker.setPrice('MNQZ6', '20940')
  await closedTrade(db, record.id).catch(() => undefined)
  await eventually(() => netMnq(broker) <= 0)
  t.equal(netMnq(broker), 0, 'flat, never short')
})
