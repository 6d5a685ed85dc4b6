import t from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradingApp } from '../../trading-helper.ts'
import { netMnq, openedTrade } from '../positions/exit-helper.ts'
import { EXIT_PLANS_ON, ordersOf } from './targets-helper.ts'

/**
 * A reversal's close while the keeper is still sending the trade's first target pair (the order-path model
 * with exit plans, seed 2012554249 path "3": the SHORT account ended LONG 1 with no open trade). The close
 * liquidated the position while the pair was on its way; the broker carried the pair out afterwards, its
 * target marketable by then, and it filled against a position no longer held. Made deterministic by holding
 * the pair's send at the paper broker until the close has been tried, the market past the pair's target.
 */

t.test("a reversal's close while a target pair is on its way: the account ends with the reversal's position, nothing more", async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, EXIT_PLANS_ON.overrides)
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: { positionChanges: { reversals: 'allow', pyramiding: 'refuse', outOfSync: 'refuse' } } })
  await connect(app, 'u-0')
  const seen = (endpoint: string) => broker.requests.filter((request) => request.endpoint === endpoint).length
  // The first pair's send (TP1 at 21005) is carried out, and answered, only when let go.
  broker.interfere('order/placeOCO', { kind: 'late' }, 1)
  const entry = mnqEntry({ userId: 'u-0', tp: null, exitPlan: { targets: [{ price: 21005, quantity: 1 }, { price: 21040, quantity: 4 }], breakeven: null } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  const trade = await openedTrade(db, record.id)
  await eventually(() => seen('order/placeOCO') === 1)
  const reverse = mnqEntry({ userId: 'u-0', action: null, orderWord: 'reverse', sl: 21050, tp: 20900 })
  await publishAlert(app, reverse)
  const request = () => db.selectFrom('flatten_requests').select(['attempts', 'done_at', 'outcome']).where('alert_id', '=', reverse.alertId).executeTakeFirst()
  // The close has been tried once (carried out, or told to wait for the pair); the market is then past TP1, and the pair let go.
  await eventually(async () => ((await request())?.attempts ?? 0) > 0 || (await request())?.done_at != null).catch(async (error: unknown) => {
    t.comment(JSON.stringify(await db.selectFrom('alerts').select(['alert_id', 'status', 'reason']).execute()), JSON.stringify(await db.selectFrom('flatten_requests').selectAll().execute()))
    throw error
  })
  broker.setPrice('MNQZ6', '21010')
  broker.release('order/placeOCO')
  const reversed = await settledRecord(db, reverse.alertId, 60_000)
  t.match(reversed, { status: 'placed', action: 'SHORT' }, `the reversal entered (${reversed.status}: ${reversed.reason})`)
  await eventually(async () => (await request())?.done_at != null, 60_000)
  await app.trading.keeper.idle()
  const tp1 = ordersOf(broker, record.id).tp1
  t.equal(netMnq(broker), -(reversed.order_quantity ?? 0), `short ${reversed.order_quantity} as the reversal sized it, the long of ${Number(trade.quantity)} closed: held ${netMnq(broker)} (TP1 ${tp1?.ordStatus ?? 'not placed'}, filled ${tp1?.filledQty ?? 0}; the close: ${(await request())?.outcome})`)
})
