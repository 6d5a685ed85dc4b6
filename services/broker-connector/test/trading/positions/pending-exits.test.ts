import t, { type Test } from 'tap'
import { Durables } from '../../../src/intake/plugin.ts'
import { drained, eventually, identityHeaders, publishAlert, setLiveTrading } from '../../helper.ts'
import { connect, connectedTrader, feedCommand, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { closedTrade, mnqExit, netMnq, openedTrade } from './exit-helper.ts'

async function tradeOpenAt5(t: Test) {
  const setup = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(setup.app, entry)
  const record = await settledRecord(setup.db, entry.alertId)
  await openedTrade(setup.db, record.id)
  return { ...setup, record }
}

const setLive = (db: Awaited<ReturnType<typeof connectedTrader>>['db'], enabled: boolean) =>
  setLiveTrading(db, ['u-0'], { enabled, autoPlaceOrders: true })

t.test('live trading off: the exit waits, the trade shows it and why; switched on again, the exit runs first and the trade closes at its fill', async (t) => {
  const { broker, app, db, config, record } = await tradeOpenAt5(t)
  await setLive(db, false)
  await feedCommand(app, 'u-0', 'stop')
  await eventually(() => broker.sessions().length === 0)

  const exit = mnqExit({ exitPrice: 21005 })
  await publishAlert(app, exit)
  await drained(app, 'ALERTS', Durables.result)
  t.equal(netMnq(broker), 5, 'nothing can reach the broker while live trading is off')
  t.match(await tradeOfRecord(db, record.id), { status: 'open', exit_price: null, pnl: null, signal_exit_price: '21005.00000000', close_alert_id: exit.alertId, exit_note: /live trading is off/ },
    'the trade stays open (the broker holds it) with its exit pending, and says why')
  t.ok((await tradeOfRecord(db, record.id))?.exit_requested_at instanceof Date)
  const page = await app.inject({ method: 'GET', url: '/api/trades', headers: identityHeaders(config, 'u-0') })
  t.match(page.json(), { trades: [{ status: 'open', exitRequestedAt: String, exitNote: /live trading is off/, signalExitPrice: '21005.00000000' }] })

  broker.setPrice('MNQZ6', '21006')
  await setLive(db, true)
  await connect(app, 'u-0')
  t.equal(netMnq(broker), 0, 'the pending exit ran when the session opened, before the session was handed out')
  t.match(await closedTrade(db, record.id), { result: 'Session End', exit_price: '21006.00000000', pnl: '60.00', signal_exit_price: '21005.00000000' })
})

t.test('the broker asks us to wait: the exit is kept with the reason and carried out after the wait', async (t) => {
  const { broker, app, db, record } = await tradeOpenAt5(t)
  broker.interfere('order/liquidateposition', { kind: 'penalty', seconds: 6 })
  broker.setPrice('MNQZ6', '21002')
  await publishAlert(app, mnqExit({ exitPrice: 21001 }))
  await eventually(async () => /the broker asked us to wait/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''))
  t.match(await tradeOfRecord(db, record.id), { status: 'open', exit_note: /the broker asked us to wait/ })
  t.equal(netMnq(broker), 5)
  await eventually(() => netMnq(broker) === 0, 20_000)
  t.match(await closedTrade(db, record.id), { exit_price: '21002.00000000', pnl: '20.00', signal_exit_price: '21001.00000000' })
})

t.test('the broker connection is down when the exit comes: it runs as soon as the session is back', async (t) => {
  const { broker, app, db, record } = await tradeOpenAt5(t)
  broker.interfere('auth/accesstokenrequest', { kind: 'penalty', seconds: 3 })
  broker.dropConnections()
  await eventually(() => app.feeds.session('u-0') === null)
  broker.setPrice('MNQZ6', '20998')
  await publishAlert(app, mnqExit({ exitPrice: 20999 }))
  await eventually(async () => /broker connection is down/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''))
  t.match(await tradeOfRecord(db, record.id), { status: 'open', exit_note: /the exit is sent to the broker as soon as it is back/ })
  await eventually(() => netMnq(broker) === 0, 20_000)
  t.match(await closedTrade(db, record.id), { exit_price: '20998.00000000', pnl: '-20.00' })
})

t.test('switching live trading off with an exit pending carries the exit out first, then stops the feed', async (t) => {
  const { broker, app, db, record } = await tradeOpenAt5(t)
  broker.interfere('order/liquidateposition', { kind: 'penalty', seconds: 60 })
  await publishAlert(app, mnqExit({ exitPrice: 21000 }))
  await eventually(async () => /the broker asked us to wait/.test((await tradeOfRecord(db, record.id))?.exit_note ?? ''))
  await setLive(db, false)
  await feedCommand(app, 'u-0', 'stop')
  await eventually(() => broker.sessions().length === 0)
  t.equal(netMnq(broker), 0, 'the stop flattened first')
  t.match(await closedTrade(db, record.id), { status: 'closed', exit_price: '21000.00000000' })
})
