import t from 'tap'
import { publishAlert } from '../../helper.ts'
import { connect, connectedTrader, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'
import { netMnq, openedTrade } from '../positions/exit-helper.ts'

/** Issue 24, item 7: the position sync guard against the paper broker. */
t.test('an entry whose strategy was elsewhere than the account is refused with why; one in step is placed', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const ordersBefore = broker.orders().length
  // The strategy says it was long already (an add), the account is flat: out of step.
  const adding = mnqEntry({ userId: 'u-0', strategyPosition: { before: 'LONG', after: 'LONG', size: 2 } })
  await publishAlert(app, adding)
  t.match(await settledRecord(db, adding.alertId), {
    status: 'refused',
    refusal_code: 'position_out_of_sync',
    reason: /^not placed: the strategy says its position in MNQZ6 was long before this order, but the account is flat at the broker/,
  })
  t.equal(broker.orders().length, ordersBefore, 'nothing sent')

  const inStep = mnqEntry({ userId: 'u-0', strategyPosition: { before: 'FLAT', after: 'LONG', size: 1 } })
  await publishAlert(app, inStep)
  t.match(await settledRecord(db, inStep.alertId), { status: 'placed' })
})

/**
 * `positionChanges.outOfSync: follow`: the account is brought to the strategy's position, never beyond its
 * rules; every step on the record; the ambiguous refused. u-0 allows reversals; u-1 keeps them refused.
 */
t.test('follow: a flat account enters as sized, an opposite position of ours is closed first, the rest refused with why', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { ALERT_ROUTING: 'targeted' })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig: { positionChanges: { reversals: 'allow', pyramiding: 'refuse', outOfSync: 'follow' } } })
  await liveTrader(db, config, { userId: 'u-1', username: 'trader1', riskConfig: { positionChanges: { reversals: 'refuse', pyramiding: 'refuse', outOfSync: 'follow' } } })
  await connect(app, 'u-0')
  await connect(app, 'u-1')

  // The strategy adds to a long the account does not hold: the account is flat, so it enters long as sized
  // (an `add` with nothing open would otherwise be refused).
  const adding = mnqEntry({ userId: 'u-0', orderWord: 'add', strategyPosition: { before: 'LONG', after: 'LONG', size: 2 } })
  await publishAlert(app, adding)
  const entered = await settledRecord(db, adding.alertId)
  t.match(entered, { status: 'placed', order_quantity: 5 }, 'entered long, sized by the account (5 at $100 a contract)')
  await openedTrade(db, entered.id)
  t.equal(netMnq(broker), 5)

  // Already on the strategy's side: not stacked.
  const again = mnqEntry({ userId: 'u-0', strategyPosition: { before: 'FLAT', after: 'LONG', size: 1 } })
  await publishAlert(app, again)
  t.match(await settledRecord(db, again.alertId), { status: 'refused', refusal_code: 'position_out_of_sync', reason: /position sync: .* the account is long 5; the account already holds the strategy's side \(long\), so nothing is added/ })

  // Ambiguous: the strategy ends on the other side than the alert's.
  const unclear = mnqEntry({ userId: 'u-0', action: 'SHORT', sl: 21050, tp: 20900, strategyPosition: { before: 'FLAT', after: 'LONG', size: 1 } })
  await publishAlert(app, unclear)
  t.match(await settledRecord(db, unclear.alertId), { status: 'refused', refusal_code: 'position_out_of_sync', reason: /does not say plainly which side the strategy ends on/ })
  t.equal(netMnq(broker), 5, 'nothing traded for the refusals')

  // The strategy goes short from flat; the account is long 5 of ours: closed first, then the short entered.
  const short = mnqEntry({ userId: 'u-0', action: 'SHORT', sl: 21050, tp: 20900, strategyPosition: { before: 'FLAT', after: 'SHORT', size: 1 } })
  await publishAlert(app, short)
  const reversed = await settledRecord(db, short.alertId)
  t.match(reversed, { status: 'placed', action: 'SHORT', reason: /^reversal: position sync: the strategy says it was flat in MNQZ6 before this order and short after it, the account is long 5; the LONG MNQZ6 position of 5 is closed first/ })
  t.match(await tradeOfRecord(db, entered.id), { status: 'closed', close_alert_id: short.alertId })
  await openedTrade(db, reversed.id)
  t.equal(netMnq(broker), -(reversed.order_quantity ?? 0), 'short as sized: closed, then entered')
  t.equal(broker.orders().filter((order) => order.clOrdId === `sig-${reversed.id}`).length, 1, 'one entry order')

  // u-1 does not allow reversals: following would reverse its long, so refused, the long kept.
  const first = mnqEntry({ userId: 'u-1' })
  await publishAlert(app, first)
  await openedTrade(db, (await settledRecord(db, first.alertId)).id)
  const flip = mnqEntry({ userId: 'u-1', action: 'SHORT', sl: 21050, tp: 20900, strategyPosition: { before: 'FLAT', after: 'SHORT', size: 1 } })
  await publishAlert(app, flip)
  t.match(await settledRecord(db, flip.alertId), { status: 'refused', refusal_code: 'position_out_of_sync', reason: /reversals are off for this account/ })
  t.equal(netMnq(broker, 9001), 5, 'the long kept')
})
