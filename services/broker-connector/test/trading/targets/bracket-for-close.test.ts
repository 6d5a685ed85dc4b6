import t from 'tap'
import type { Test } from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { traderWithSource } from '../../source-helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'

/**
 * With exit plans off (today's live path): a close that takes a whole trade with a bracket (one stop and one
 * target for the trade) cancels its legs before its order leaves, as it shrinks those of a trade it leaves
 * open (docs/decisions/targets-breakeven.md, "A partial close racing the pairs"). Left working, they closed
 * the other trades' contracts once the close filled, before the keeper applied its fill. The close's fill is
 * held apart from the keeper with the paper broker's `holdEvents`, as a slow event delivery would.
 */

type Connected = Awaited<ReturnType<typeof traderWithSource>>

/** The record's legs still working at the broker. */
const workingLegsOf = (broker: Connected['broker'], recordId: number) =>
  broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`) && order.clOrdId !== `sig-${recordId}` && order.ordStatus === 'Working')

const stopsOf = (broker: Connected['broker'], recordId: number) =>
  workingLegsOf(broker, recordId).filter((order) => order.clOrdId?.endsWith('.sl')).reduce((sum, order) => sum + order.orderQty, 0)

const closeTwo = () => mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })

/** u-0's two trades of 2 (A, then B) in MNQ, each with its bracket (stop 20950, target 21100). */
async function twoTrades(t: Test, entryOf: (connected: Connected) => [ReturnType<typeof mnqEntry>, ReturnType<typeof mnqEntry>] = () => [mnqEntry({ userId: 'u-0' }), mnqEntry({ userId: 'u-0' })]) {
  const connected = await traderWithSource(t)
  const { app, db } = connected
  const [first, second] = entryOf(connected)
  await publishAlert(app, first)
  const a = await settledRecord(db, first.alertId)
  await openedTrade(db, a.id)
  await publishAlert(app, second)
  const b = await settledRecord(db, second.alertId)
  await openedTrade(db, b.id)
  await app.trading.keeper.idle()
  return { ...connected, a, b }
}

t.test('a partial close taking a whole bracket trade, its fill not yet applied, then the stop price: flat, never short', async (t) => {
  const { broker, app, a, b } = await twoTrades(t)
  t.equal(netMnq(broker), 4, 'two trades of 2')
  broker.holdEvents(true)
  await publishAlert(app, closeTwo())
  await eventually(() => netMnq(broker) === 2, 20_000)
  t.equal(stopsOf(broker, a.id), 0, "the closed trade's stop was cancelled before the close went out")
  t.equal(workingLegsOf(broker, a.id).length, 0, "and its target")
  t.equal(stopsOf(broker, b.id), 2, "the other trade keeps its stop")
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
  broker.holdEvents(false)
})

t.test("a source's exit beside the spec route's trade, its fill not yet applied, then the stop price: flat, never short", async (t) => {
  const { broker, app, a, b, house } = await twoTrades(t, ({ house }) => [mnqEntry({ userId: 'u-0' }), mnqEntry({ userId: null, sourceId: house })])
  t.equal(netMnq(broker), 4)
  broker.holdEvents(true)
  await publishAlert(app, mnqExit({ sourceId: house, result: 'TP', exitPrice: 21000 }))
  await eventually(() => netMnq(broker) === 2, 20_000)
  t.equal(stopsOf(broker, b.id), 0, "the exited trade's stop was cancelled before the close went out")
  t.equal(stopsOf(broker, a.id), 2, "the spec route's trade keeps its stop")
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
  broker.holdEvents(false)
})

t.test('a partial close taking a whole bracket trade, refused: the trade gets its stop back', async (t) => {
  const { broker, app, db, a, b } = await twoTrades(t)
  broker.interfere('order/placeorder', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => /test refusal/.test((await db.selectFrom('flatten_requests').select('reason').where('alert_id', '=', exit.alertId).executeTakeFirst())?.reason ?? ''))
  await app.trading.flattens.idle()
  t.equal(netMnq(broker), 4, 'nothing closed')
  t.equal(stopsOf(broker, a.id) + stopsOf(broker, b.id), 4, 'the stops cover the 4 held again')
  t.equal(stopsOf(broker, a.id), 2, "the closed trade's stop was placed again")
  t.match((await tradeOfRecord(db, a.id))?.exit_note ?? '', /not carried out.*stop .*placed again/, "the trade's note says its target is gone and its stop was placed again")
})

t.test('a partial close taking a whole bracket trade, accepted and then ended unfilled at the broker: the trade gets its stop back', async (t) => {
  const { broker, app, db, a, b } = await twoTrades(t)
  // Accepted under its tag, then cancelled (by the trader, a rejection after acceptance): a Sell Limit far above the market.
  const session = app.feeds.session('u-0')!
  session.placeClosingOrder = async (request) => {
    const placed = await session.placeBracket({ tag: request.tag, contract: request.contract, action: request.action, quantity: request.quantity, entryType: 'Limit', entryPrice: '30000', stopPrice: '40000', targetPrice: null })
    await session.cancelOrder(placed.entryOrderId)
    return { orderId: placed.entryOrderId }
  }
  await publishAlert(app, closeTwo())
  await eventually(async () => /ended Canceled.*stop for 2 contract\(s\) was placed again/.test((await tradeOfRecord(db, a.id))?.exit_note ?? ''))
  t.equal(netMnq(broker), 4, 'nothing closed')
  t.equal(stopsOf(broker, a.id), 2, "the trade's stop was placed again")
  t.equal(stopsOf(broker, b.id), 2, 'the other trade keeps its stop')
  t.match((await db.selectFrom('alerts').select('reason').where('id', '=', a.id).executeTakeFirst())?.reason ?? '', /its target is gone/, "the record says its target is gone")
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})

t.test("a partial close taking a whole bracket trade whose limit entry's rest fills meanwhile: what the rest adds keeps a stop", async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  // A limit 25 points under the market, its stop 50 under that: 5 contracts; 2 fill first.
  const entry = mnqEntry({ userId: 'u-0', entryPrice: 20975, sl: 20925, tp: 21075, raw: { orderType: 'limit' } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.order_quantity, 5)
  broker.setLiquidity('MNQZ6', 2)
  broker.setPrice('MNQZ6', '20974')
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 2)
  await app.trading.keeper.idle()
  t.equal(stopsOf(broker, record.id), 2, 'the bracket covers the 2 filled')
  // The close of 2 takes the trade whole (its legs cancelled first); its read of the position is answered late,
  // and meanwhile the limit's rest fills (no leg left to arm for it).
  broker.delay('position/list', 1_500)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(() => stopsOf(broker, record.id) === 0)
  broker.setLiquidity('MNQZ6', null)
  broker.setPrice('MNQZ6', '20970')
  t.equal(netMnq(broker), 5, "the limit's rest filled: 5 held")
  broker.delay('position/list', 0)
  await eventually(async () => (await db.selectFrom('flatten_requests').select('done_at').where('alert_id', '=', exit.alertId).executeTakeFirst())?.done_at != null, 20_000)
  await eventually(() => netMnq(broker) === 3)
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 3)
  await app.trading.keeper.idle()
  // Placed again beside the keeper's queue (it waits for the exit lock), then said: waited for, bounded.
  const said = /was to take the whole trade and left part of it open.*a stop for 3 contract\(s\) was placed again at 20925/
  await eventually(async () => stopsOf(broker, record.id) === 3 && said.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''), 10_000).catch(() => undefined)
  t.equal(stopsOf(broker, record.id), 3, 'the 3 the trade still holds have a stop')
  t.match((await tradeOfRecord(db, record.id))?.exit_note, said, 'the trade says so')
  broker.setPrice('MNQZ6', '20920')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat')
})
