import t from 'tap'
import type { Test } from 'tap'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { buildInstance, eventually, publishAlert } from '../../helper.ts'
import { tradeOfRecord, type connectedTrader } from '../../trading-helper.ts'
import { mnqExit, netMnq, openBracket } from './exit-helper.ts'

/**
 * A partial close cuts a bracket trade's legs before its order goes; an order that then ends short of its fill
 * gets the cut put back (positions/close-ended.ts). Here it ends while no connector listens (the app closed):
 * the instance opening the session next finds it ended in the snapshot and puts the bracket back
 * (docs/decisions/targets-breakeven.md, "Stop 37's review", its MED done in stop 38).
 */

const legsOf = (broker: PaperBroker, recordId: number) =>
  Object.fromEntries(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`)).map((order) => [order.clOrdId?.endsWith('.sl') ? 'stop' : 'target', order]))

const closeTwo = () => mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } })

const requestOf = (db: Awaited<ReturnType<typeof connectedTrader>>['db'], alertId: string) =>
  db.selectFrom('flatten_requests').select(['done_at', 'outcome', 'put_back_orders']).where('alert_id', '=', alertId).executeTakeFirst()


/** The connector starts again on the same database, and holds the trader's session. */
async function restarted(t: Test, config: Awaited<ReturnType<typeof connectedTrader>>['config']) {
  const app = await buildInstance(t, config, { feeds: true })
  await eventually(() => app.feeds.session('u-0') !== null, 15_000)
  return app
}

t.test('a partial close accepted, then cancelled at the broker while the connector is away: the instance opening the session next puts the bracket back', async (t) => {
  const { broker, app, db: firstDb, config, record } = await openBracket(t)
  // The close rests at the broker (a Sell Limit far above the market), as a Market order the broker holds would.
  const session = app.feeds.session('u-0')!
  session.placeClosingOrder = async (request) => {
    const placed = await session.placeBracket({ tag: request.tag, contract: request.contract, action: request.action, quantity: request.quantity, entryType: 'Limit', entryPrice: '30000', stopPrice: '40000', targetPrice: null })
    return { orderId: placed.entryOrderId }
  }
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(async () => (await requestOf(firstDb, exit.alertId))?.done_at != null, 20_000)
  t.match(legsOf(broker, record.id), { stop: { orderQty: 3 }, target: { orderQty: 3 } }, 'the bracket cut to the 3 the close leaves')
  const close = broker.orders().find((order) => order.clOrdId?.startsWith('pc-'))!
  t.equal(close.ordStatus, 'Working', 'the close rests at the broker')

  // The connector stops; the trader cancels the close on the broker's platform meanwhile.
  await app.close()
  broker.cancelByHand(9000, close.id)
  t.equal(broker.orders().find((order) => order.id === close.id)?.ordStatus, 'Canceled', 'cancelled while nobody listens')

  const again = await restarted(t, config)
  const db = again.db
  const said = /partial close .*ended Canceled.*0 of 2 filled.*put back/
  const told = await eventually(async () => said.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''), 15_000).then(() => true, () => false)
  t.equal(netMnq(broker), 5, 'nothing was closed: 5 still held')
  t.match(legsOf(broker, record.id), { stop: { orderQty: 5, ordStatus: 'Working' }, target: { orderQty: 5, ordStatus: 'Working' } }, 'both legs cover the 5 held again')
  t.ok(told, "the trade's note says why")
  // The request is marked after the legs are grown and the trade's note written (a crash between puts them back again).
  const marked = await eventually(async () => (await requestOf(db, exit.alertId))?.put_back_orders.length === 1, 15_000).then(() => true, () => false)
  const request = await requestOf(db, exit.alertId)
  t.ok(marked, 'the request is marked put back')
  t.same(request?.put_back_orders.map(Number), [close.id], 'the request says its order was put back (never again)')
  t.equal(request?.outcome?.match(/ended Canceled/g)?.length, 1, "the request's outcome says once how the order ended")
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})

t.test('a partial close filled in part, its rest cancelled at the broker while the connector is away: the bracket grows back to the 4 still held, not more', async (t) => {
  const { broker, app, db: firstDb, config, record } = await openBracket(t)
  // Each order fills one contract per price event: the close of 2 fills 1, the other waits.
  broker.setLiquidity('MNQZ6', 1)
  const exit = closeTwo()
  await publishAlert(app, exit)
  await eventually(() => netMnq(broker) === 4)
  await eventually(async () => (await requestOf(firstDb, exit.alertId))?.done_at != null, 20_000)
  const close = broker.orders().find((order) => order.clOrdId?.startsWith('pc-') && order.ordStatus === 'Working')
  t.ok(close, 'the rest of the close is still working')

  await app.close()
  broker.cancelByHand(9000, close!.id)
  broker.setLiquidity('MNQZ6', null)

  const again = await restarted(t, config)
  const db = again.db
  const told = await eventually(async () => /ended Canceled.*1 of 2 filled.*put back/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''), 15_000).then(() => true, () => false)
  t.equal(netMnq(broker), 4, '4 held')
  t.equal(Number((await tradeOfRecord(db, record.id))?.quantity), 4, 'the trade holds 4')
  t.match(legsOf(broker, record.id), { stop: { orderQty: 4, ordStatus: 'Working' }, target: { orderQty: 4, ordStatus: 'Working' } }, 'both legs cover the 4 held')
  t.ok(told, "the trade's note says why")
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, never short')
})
