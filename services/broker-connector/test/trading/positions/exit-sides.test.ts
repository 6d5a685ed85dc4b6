import t from 'tap'
import { Durables } from '../../../src/intake/plugin.ts'
import { drained, eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { closedTrade, mnqExit, netMnq, openedTrade } from './exit-helper.ts'

t.test('closes is honoured: exit_long leaves a short alone; exit_short closes it at the flatten fill', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry({ action: 'SHORT', entryPrice: 21000, sl: 21040, tp: 20900 })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  t.equal(netMnq(broker), -5, 'five contracts: the default per-order cap')

  await publishAlert(app, mnqExit({ closes: 'LONG', exitPrice: 20990 }))
  await drained(app, 'ALERTS', Durables.result)
  t.equal(netMnq(broker), -5, 'exit_long did not flatten the short')
  t.match(await tradeOfRecord(db, record.id), { status: 'open', exit_price: null, exit_requested_at: null }, 'and left its trade open')
  t.equal(broker.orders().filter((order) => order.ordStatus === 'Working').length, 2, 'its stop and target still work')

  broker.setPrice('MNQZ6', '20990.25')
  const exit = mnqExit({ closes: 'SHORT', exitPrice: 20990 })
  await publishAlert(app, exit)
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { result: 'Session End', exit_price: '20990.25000000', signal_exit_price: '20990.00000000', pnl: '97.50' }, '-(20990.25 - 21000) x 5 x $2')
})

t.test('exit_long closes a long', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  broker.setPrice('MNQZ6', '20990')
  await publishAlert(app, mnqExit({ closes: 'LONG', result: 'SL', exitPrice: 20991 }))
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { result: 'SL', exit_price: '20990.00000000', signal_exit_price: '20991.00000000', pnl: '-100.00' }, 'the alert\'s result, the fill\'s price')
})

t.test('an exit cancels a working limit entry of the matching records first: it never fills after the exit', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry({ entryPrice: 20990, sl: 20950, tp: 21100 })
  await publishAlert(app, { ...entry, raw: { ...(entry.raw as object), orderType: 'limit' } })
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed')
  const working = () => broker.orders().find((order) => order.id === record.entry_order_id)
  t.equal(working()?.ordStatus, 'Working', 'a buy limit below the market waits')

  await publishAlert(app, mnqExit({ exitPrice: 21000 }))
  await eventually(() => working()?.ordStatus === 'Canceled')
  t.equal(working()?.ordStatus, 'Canceled', 'the exit cancelled the entry')
  broker.setPrice('MNQZ6', '20980')
  await drained(app, 'ALERTS', Durables.result)
  t.equal(netMnq(broker), 0, 'no position: the limit did not fill after the exit')
  t.equal(await tradeOfRecord(db, record.id), undefined, 'no trade')
  t.equal(broker.fills().length, 0)
})
