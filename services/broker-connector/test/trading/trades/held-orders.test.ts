import t from 'tap'
import { eventually, makeAlert, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'

// The trade keeper once held every order a session saw, for as long as the session lasted: a connector
// under a steady load grew by three orders per bracket (the soak's memory growth).
t.test('the trade keeper holds a session\'s working orders only: filled and cancelled ones are let go once their fills are applied', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const held = () => app.trading.keeper.heldOrders('u-0')

  // Each round: a bracket whose entry fills, then its target or its stop fills and the other leg is cancelled.
  const rounds = [{ exitAt: '21101', result: 'TP' }, { exitAt: '20949', result: 'SL' }, { exitAt: '21101', result: 'TP' }, { exitAt: '21101', result: 'TP' }]
  for (const [index, round] of rounds.entries()) {
    broker.setPrice('MNQZ6', '21000')
    const alert = mnqEntry({ entryPrice: 21000, sl: 20950, tp: 21100 })
    await publishAlert(app, alert)
    const record = await settledRecord(db, alert.alertId)
    t.equal(record.status, 'placed', `round ${index + 1}: placed`)
    await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
    await eventually(() => held() === 2)
    t.equal(held(), 2, `round ${index + 1}: while the trade is open only its two working legs are held`)
    broker.setPrice('MNQZ6', round.exitAt)
    await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
    t.match(await tradeOfRecord(db, record.id), { result: round.result }, `round ${index + 1}: closed ${round.result} from the leg's fill`)
    await eventually(() => held() === 0)
    t.equal(held(), 0, `round ${index + 1}: nothing held once the trade is closed and the other leg cancelled`)
  }

  // A liquidation: an Exit alert flattens (an untagged order and its fill) and cancels the legs.
  broker.setPrice('MNQZ6', '21000')
  const alert = mnqEntry({ entryPrice: 21000, sl: 20950, tp: 21100 })
  await publishAlert(app, alert)
  const record = await settledRecord(db, alert.alertId)
  await eventually(async () => (await tradeOfRecord(db, record.id)) !== undefined)
  await publishAlert(app, makeAlert({ kind: 'result', symbol: 'MNQ1!', root: 'MNQ', result: 'Exit', exitPrice: null, action: null, entryPrice: null, sl: null, tp: null, userId: null }))
  await eventually(async () => (await tradeOfRecord(db, record.id))?.broker_exit_price != null)
  t.match(await tradeOfRecord(db, record.id), { status: 'closed', result: 'Session End' }, 'closed by the flatten fill')
  await eventually(() => held() === 0)
  t.equal(held(), 0, 'nothing held after the flatten')
  t.equal(broker.orders().length, 3 * (rounds.length + 1) + 1, 'every order the session saw was at the broker (the keeper let them go, the broker keeps them)')
})
