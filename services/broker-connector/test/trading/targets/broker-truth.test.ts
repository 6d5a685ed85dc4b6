import t, { type Test } from 'tap'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq, openedTrade } from '../positions/exit-helper.ts'
import { EXIT_PLANS_ON, connectorAway, connectorBack, exitsOf, ordersOf, withTargets } from './targets-helper.ts'

/**
 * The keeper and a partial close size the exits on what the broker holds of the trade now, not on the fills
 * the database has applied so far (docs/decisions/targets-breakeven.md, findings of the stop 31 review): a
 * pair the broker shows filled whose fill is still on its way holds nothing and covers nothing. Each test
 * failed on main's code first (the review's reproductions A, A2, B, D).
 */

type Connected = Awaited<ReturnType<typeof connectedTrader>>

const openQuantity = async (db: Connected['db'], recordId: number) =>
  Number((await db.selectFrom('trades').select('quantity').where('alert_record_id', '=', recordId).where('status', '=', 'open').executeTakeFirst())?.quantity)

/** Entry of 5, pair 1 refused (the whole-position stop keeps its contract), pairs 2-5 working; then the connector lets go. */
async function pairOneRefusedThenAway(t: Test) {
  const connected = await connectedTrader(t, EXIT_PLANS_ON)
  const { broker, app, db } = connected
  broker.interfere('order/placeOCO', { kind: 'refusal', failureText: 'test refusal' }, 1)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => exitsOf(broker, record.id).targets === 4 && exitsOf(broker, record.id).stops === 5)
  await app.trading.keeper.idle()
  t.equal(ordersOf(broker, record.id).sl?.orderQty, 1, 'the whole-position stop covers the refused pair')
  await connectorAway(app)
  broker.setPrice('MNQZ6', '21045')
  t.equal(netMnq(broker), 2, 'pairs 2, 3 and 4 took profit while the connector was away: 2 held')
  t.equal(exitsOf(broker, record.id).stops, 2, 'the broker left stops 2 for the 2 held')
  return { ...connected, record }
}

t.test('fills replayed after the connector was away: the whole-position stop is not grown by pairs already filled at the broker', async (t) => {
  const { broker, app, db, record } = await pairOneRefusedThenAway(t)
  // The first resize on the replay passes, the next ones are refused: a stop grown too far is not shrunk back.
  broker.interfere('order/modifyorder', { kind: 'pass' }, 1)
  broker.interfere('order/modifyorder', { kind: 'refusal', failureText: 'test refusal' }, 5)
  await connectorBack(app)
  await eventually(async () => (await openQuantity(db, record.id)) === 2)
  await app.trading.keeper.idle()
  t.equal(exitsOf(broker, record.id).stops, 2, 'stops never above the 2 held')
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop price hit: flat, not short')
})

t.test('fills replayed after the connector was away: the stops never close more than is held at any moment of the replay', async (t) => {
  const { broker, app, db, record } = await pairOneRefusedThenAway(t)
  let worst = 0
  let watching = true
  const watch = (async () => {
    while (watching) {
      worst = Math.max(worst, exitsOf(broker, record.id).stops - netMnq(broker))
      await new Promise((resolve) => setImmediate(resolve))
    }
  })()
  await connectorBack(app)
  await eventually(async () => (await openQuantity(db, record.id)) === 2)
  await app.trading.keeper.idle()
  watching = false
  await watch
  t.equal(worst, 0, 'no moment with stops above what was held')
  t.equal(exitsOf(broker, record.id).stops, 2, 'stops 2 for the 2 held after the replay')
})

t.test('a partial close while TP1 filled at the broker is not yet applied: the exits are cut to what the broker holds', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => exitsOf(broker, record.id).targets === 5 && exitsOf(broker, record.id).stops === 5)
  await app.trading.keeper.idle()
  // The keeper's next order list (its look for the pairs after TP1's fill) is held: it is behind the broker.
  broker.interfere('order/list', { kind: 'late' }, 1)
  broker.setPrice('MNQZ6', '21020')
  t.equal(netMnq(broker), 3, 'TP1 (pairs 1 and 2) filled: 3 held')
  await publishAlert(app, mnqExit({ closes: 'LONG', quantity: 2, closePart: { quantity: 2, percent: null, remaining: null } }))
  await eventually(() => netMnq(broker) === 1)
  t.ok(exitsOf(broker, record.id).stops <= 1, 'after the close filled, the keeper behind: stops never above the 1 held')
  broker.release('order/list')
  await eventually(async () => (await openQuantity(db, record.id)) === 1)
  await app.trading.keeper.idle()
  t.equal(exitsOf(broker, record.id).stops, 1, 'the keeper caught up: stops 1 for the 1 held')
  t.equal(exitsOf(broker, record.id).targets, 1, 'and one target for it')
})

t.test('TP1 (two pairs) fills at once: no false "no stop" note while every contract has one', async (t) => {
  const { broker, app, db } = await connectedTrader(t, EXIT_PLANS_ON)
  const entry = withTargets()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  await eventually(() => exitsOf(broker, record.id).targets === 5 && exitsOf(broker, record.id).stops === 5)
  await app.trading.keeper.idle()
  broker.setPrice('MNQZ6', '21020')
  await eventually(async () => Number((await tradeOfRecord(db, record.id))?.quantity) === 3)
  await app.trading.keeper.idle()
  t.equal(exitsOf(broker, record.id).stops, 3, 'stops 3 for the 3 held')
  t.notMatch((await tradeOfRecord(db, record.id))?.exit_note ?? '', /no stop at the broker/, 'the trade says nothing of contracts without a stop')
})
