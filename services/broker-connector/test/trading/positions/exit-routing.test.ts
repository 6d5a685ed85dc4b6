import t from 'tap'
import { buildInstance, eventually, identityHeaders, publishAlert } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradingApp } from '../../trading-helper.ts'
import { closedTrade, mnqExit, netMnq, openedTrade } from './exit-helper.ts'

// The audit: a result alert closed the trades in Postgres and flattened only the users whose session the
// consuming instance held; another instance's users stayed long at the broker behind a closed trade.
t.test('a result alert consumed by an instance that does not hold the trader is flattened at the holder; the trade closes at the flatten fill', async (t) => {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  // The holder of the trader's feed consumes no alerts; the other instance holds no feeds and consumes them all.
  const holder = await tradingApp(t, broker, {}, { consumers: false })
  await liveTrader(holder.db, holder.config, { userId: 'u-0', username: 'trader0' })
  await connect(holder.app, 'u-0')
  const consumer = await buildInstance(t, holder.config, { feeds: false })

  const entry = mnqEntry()
  await publishAlert(consumer, entry)
  const record = await settledRecord(holder.db, entry.alertId)
  t.equal(record.status, 'placed', 'the entry was forwarded to the holder and placed')
  await openedTrade(holder.db, record.id)
  t.equal(netMnq(broker), 5)

  broker.setPrice('MNQZ6', '21010.5')
  const exit = mnqExit({ exitPrice: 21010 })
  await publishAlert(consumer, exit)
  await eventually(() => netMnq(broker) === 0)
  t.equal(netMnq(broker), 0, 'flat at the broker')
  const trade = await closedTrade(holder.db, record.id)
  t.match(trade, {
    status: 'closed', result: 'Session End', exit_price: '21010.50000000', broker_exit_price: '21010.50000000', pnl: '105.00',
    signal_exit_price: '21010.00000000', close_alert_id: exit.alertId,
  }, 'exit and pnl are the broker\'s fill, (21010.50 - 21000) x 5 x $2; the alert\'s price is kept as the signal\'s')
  const listed = await holder.app.inject({ method: 'GET', url: '/api/trades', headers: identityHeaders(holder.config, 'u-0') })
  t.match(listed.json(), { trades: [{ status: 'closed', exitPrice: '21010.50000000', signalExitPrice: '21010.00000000', pnl: '105.00', exitNote: null }] })
})
