import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { netMnq, openedTrade } from '../positions/exit-helper.ts'

import { EXIT_PLANS_ON, marketAt } from './targets-helper.ts'

t.test('a trailing stop starts at its trigger, moves up in steps with the market, and never down', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  // 40 ticks (10 points) behind the bid once it reaches 21005, in steps of at least 8 ticks (2 points).
  const entry = mnqEntry({ userId: 'u-0', trailingStop: { distanceTicks: 40, distancePrice: null, triggerPrice: 21005, stepTicks: 8 } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  const trade = await openedTrade(db, record.id)
  const session = app.feeds.session('u-0')!
  const stopPrice = async () => (await session.orderVersions([trade.stop_order_id!])).get(trade.stop_order_id!)?.stopPrice
  const trails = app.trading.trailingStops!

  await marketAt(broker, app, '21004')
  t.equal(await stopPrice(), '20950', 'below the trigger: the stop stays where it was placed')
  await marketAt(broker, app, '21010')
  t.equal(await stopPrice(), '21000', 'at the trigger: 10 points behind the bid')
  await marketAt(broker, app, '21011')
  t.equal(await stopPrice(), '21000', 'one point more is less than the step: not moved')
  await marketAt(broker, app, '21012.5')
  t.equal(await stopPrice(), '21002.5', 'a step of 2.5 points: moved')
  await marketAt(broker, app, '21008')
  t.equal(await stopPrice(), '21002.5', 'the market back down: never loosened')

  await marketAt(broker, app, '21002.25')
  await eventually(() => netMnq(broker) === 0)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'SL', exit_price: '21002.50000000' }, 'the trailed stop closed the trade, in profit')
  t.same(await trails.pass(), [], 'a closed trade trails no more')
})

t.test('a stop moved tighter by something else (breakeven, a modify alert) is never loosened by the trail', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = mnqEntry({ userId: 'u-0', trailingStop: { distanceTicks: 40, distancePrice: null, triggerPrice: null, stepTicks: 1 } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  const trade = await openedTrade(db, record.id)
  const session = app.feeds.session('u-0')!
  const stopPrice = async () => (await session.orderVersions([trade.stop_order_id!])).get(trade.stop_order_id!)?.stopPrice
  await marketAt(broker, app, '21010')
  t.equal(await stopPrice(), '21000')
  await session.repriceOrder!(trade.stop_order_id!, { stopPrice: '21005' })
  await marketAt(broker, app, '21012')
  t.equal(await stopPrice(), '21005', 'the trail would put it at 21002: left at 21005')
  await marketAt(broker, app, '21016')
  t.equal(await stopPrice(), '21006', 'and it trails on from there')
})

t.test('the trail never moves on a quote older than MARKET_PRICE_MAX_AGE_MS, nor on the last trade without a bid', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = mnqEntry({ userId: 'u-0', trailingStop: { distanceTicks: 40, distancePrice: null, triggerPrice: null, stepTicks: 1 } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  const trade = await openedTrade(db, record.id)
  const session = app.feeds.session('u-0')!
  const contract = { id: trade.broker_contract_id!, name: 'MNQZ6' }
  const stopPrice = async () => (await session.orderVersions([trade.stop_order_id!])).get(trade.stop_order_id!)?.stopPrice
  const seen = (price: string, source: string) => eventually(async () => {
    const market = await session.marketPrice(contract, 'Sell')
    return market.kind === 'price' && Number(market.price) === Number(price) && market.source === source
  })

  broker.setPrice('MNQZ6', '21010', { quotedAt: new Date(Date.now() - 10 * 60_000) })
  await seen('21010', 'bid')
  t.same(await app.trading.trailingStops!.pass(), [], 'a bid ten minutes old moves nothing')
  t.equal(await stopPrice(), '20950')

  broker.dropMarketData()
  broker.setPrice('MNQZ6', '21020', { entries: ['Trade'] })
  await seen('21020', 'last')
  t.same(await app.trading.trailingStops!.pass(), [], 'the last trade, no bid: nothing moved')
  t.equal(await stopPrice(), '20950')
})

t.test('one trade that fails in the pass never stops the others from trailing', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const trailing = { distanceTicks: 40, distancePrice: null, triggerPrice: null, stepTicks: 1 }
  const first = mnqEntry({ userId: 'u-0', quantity: 1, trailingStop: trailing })
  await publishAlert(app, first)
  const bad = await openedTrade(db, (await settledRecord(db, first.alertId)).id)
  broker.setPrice('MESZ6', '6000')
  const second = mnqEntry({ userId: 'u-0', symbol: 'MES1!', root: 'MES', entryPrice: 6000, sl: 5990, tp: 6100, quantity: 1, trailingStop: trailing })
  await publishAlert(app, second)
  const good = await openedTrade(db, (await settledRecord(db, second.alertId)).id)
  // A plan that cannot be read (neither distance): this trade's turn throws.
  await sql`UPDATE alerts SET trailing_stop = jsonb_set(trailing_stop::jsonb, '{distanceTicks}', 'null') WHERE id = ${bad.alert_record_id}`.execute(db)
  const session = app.feeds.session('u-0')!
  broker.setPrice('MESZ6', '6020')
  await eventually(async () => {
    const seen = await session.marketPrice({ id: good.broker_contract_id!, name: 'MESZ6' }, 'Sell')
    return seen.kind === 'price' && Number(seen.price) === 6020
  })
  const moved = await app.trading.trailingStops!.pass().catch((error: unknown) => error)
  t.same(moved, [{ tradeId: good.id, stopPrice: '6010.00' }], 'the other trade\'s stop moved')
})

t.test('one trade\'s trailing stop moves at most once per TRAILING_STOP_MIN_GAP_MS (the broker\'s rate limits)', async (t) => {
  const { broker, app, db } = await connectedTrader(t, { overrides: { ...EXIT_PLANS_ON.overrides, TRAILING_STOP_MIN_GAP_MS: '60000' } })
  const entry = mnqEntry({ userId: 'u-0', trailingStop: { distanceTicks: 40, distancePrice: null, triggerPrice: null, stepTicks: 1 } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  const trade = await openedTrade(db, record.id)
  const stopPrice = async () => (await app.feeds.session('u-0')!.orderVersions([trade.stop_order_id!])).get(trade.stop_order_id!)?.stopPrice
  t.same((await marketAt(broker, app, '21010')).map((move) => move.stopPrice), ['21000.00'])
  t.same(await marketAt(broker, app, '21020'), [], 'a move due, but within the gap: not made')
  t.equal(await stopPrice(), '21000', 'the stop stays where the first move put it')
})
