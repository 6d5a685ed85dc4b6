import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { netMnq, tradesOf } from '../positions/exit-helper.ts'

// The order-path model's seed 406158382: a limit entry filled in part, the bracket the broker sized to that
// part stopped it out, then the limit's rest filled. The rest's contracts were at the broker with no stop and
// no open trade counting them (the entry fill of a closed trade changed nothing).

t.test("an entry's rest filled after its bracket closed the part filled opens a part of its own, closed at the market; the entry's rest is cancelled", async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  // A limit 25 points under the market, its stop 50 under that: 5 contracts.
  const entry = mnqEntry({ entryPrice: 20975, sl: 20925, tp: 21075, raw: { orderType: 'limit' } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  t.equal(record.order_quantity, 5)
  broker.setLiquidity('MNQZ6', 2)

  // The market's events held, so both fills of the entry are at the broker before the keeper sees the stop's.
  broker.holdEvents(true)
  broker.setPrice('MNQZ6', '20900') // 2 of the limit fill, then their stop (sized 2) at 20900
  broker.setPrice('MNQZ6', '20901') // 2 more of the limit fill: no bracket is left to cover them
  const entryOrder = () => broker.orders().find((order) => order.clOrdId === record.order_tag)!
  t.match(entryOrder(), { filledQty: 4, ordStatus: 'Working' }, 'the limit filled 4 of 5 at the broker')
  t.equal(netMnq(broker), 2, 'the 2 filled after the stop are held')
  broker.holdEvents(false)

  await eventually(async () => (await tradesOf(db, 'u-0')).length === 2 && (await tradesOf(db, 'u-0')).every((trade) => trade.status === 'closed'))
  const [trade, late] = await tradesOf(db, 'u-0')
  t.match(trade, { id: (await tradeOfRecord(db, record.id))!.id, status: 'closed', result: 'SL', quantity: '2.0000', exit_price: '20900.00000000' }, 'the trade closes at its stop with the 2 its bracket covered')
  t.match(late, { status: 'closed', parent_trade_id: trade!.id, alert_record_id: null, quantity: '2.0000', entry_price: '20975.00000000', result: 'SL' }, 'the 2 filled after it are a part of their own, closed with its result')
  t.equal(netMnq(broker), 0, 'the broker holds nothing: the late contracts were closed at the market')
  await eventually(() => entryOrder().ordStatus === 'Canceled')
  t.match(entryOrder(), { filledQty: 4, ordStatus: 'Canceled' }, "the entry's last contract was cancelled with its trade, so it cannot fill without a stop")
  t.equal(netMnq(broker), 0)
  const closes = broker.orders().filter((order) => order.clOrdId?.startsWith('pc-'))
  t.match(closes, [{ action: 'Sell', orderQty: 2, filledQty: 2 }], 'one closing order of exactly the late 2')
})
