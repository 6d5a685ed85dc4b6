import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connect, connectedTrader, feedCommand, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'
import { seenState, statusOf } from '../../feeds/feed-helper.ts'
import { netMnq, openedTrade } from './exit-helper.ts'
import { ACCOUNT, discrepancies, netPosition, reconcilingTrader, statusSaying } from './reconcile-helper.ts'

// Review of the reconciliation (issue 20, item 2): it must never act on what may be ours. Before these
// guards, a position that appeared while an entry of ours was on its way was flattened as unknown (the
// entry's own fill, closed at market with its legs), and a trade recorded before accounts were (no account
// id, possibly another account's) was ended by the session of whichever account was reconciled.

t.test('a position none of our trades is in is not flattened while an entry of ours is on its way; once it has settled, it is', async (t) => {
  const { broker, db } = await reconcilingTrader(t)
  // An entry sent, its outcome not known yet (the broker has not answered): the record is placing.
  await sql`INSERT INTO alerts (alert_id, raw_data, user_id, status, sent_at, order_tag, send_attempts)
    VALUES ('in-flight', '{}'::jsonb, 'u-0', 'placing', now(), 'sig-999999', 1)`.execute(db)
  const orderId = broker.placeManualOrder('trader0', { symbol: 'MNQZ6', action: 'Buy', qty: 2 })
  const contractId = broker.orders().find((order) => order.id === orderId)?.contractId as number
  await eventually(async () => (await discrepancies(db)).some((row) => /an entry of ours is on its way/.test(row.action)), 10_000)
  t.equal(netPosition(broker, contractId), 2, 'left at the broker while the entry is on its way')
  t.match((await discrepancies(db)).find((row) => row.kind === 'untracked_position'), { broker_qty: 2, our_qty: 0, resolved_at: null })

  await sql`UPDATE alerts SET status = 'failed', reason = 'test: settled' WHERE alert_id = 'in-flight'`.execute(db)
  await eventually(() => netPosition(broker, contractId) === 0, 10_000)
  t.pass('flattened by a later pass once nothing of ours is on its way')
})

t.test('a trade without an account id is never ended by a reconciliation (it may be another account\'s)', async (t) => {
  const { broker, app, db } = await reconcilingTrader(t)
  const contract = await app.feeds.session('u-0')!.findContract('MNQZ6')
  const { id } = await db
    .insertInto('trades')
    .values({ user_id: 'u-0', symbol: 'MNQ1!', root: 'MNQ', side: 'LONG', quantity: '2', entry_price: '21000', contract: 'MNQZ6', broker_contract_id: contract.id })
    .returning('id')
    .executeTakeFirstOrThrow()
  // A pass is seen to run: an unprotected position in another contract is flattened.
  broker.setPrice('MESZ6', '6000')
  const orderId = broker.placeManualOrder('trader0', { symbol: 'MESZ6', action: 'Sell', qty: 1 })
  const mes = broker.orders().find((order) => order.id === orderId)?.contractId as number
  await eventually(() => netPosition(broker, mes) === 0, 10_000)
  await eventually(async () => (await discrepancies(db)).filter((row) => row.kind === 'untracked_position' && row.resolved_at !== null).length >= 1, 10_000)
  t.match(await db.selectFrom('trades').select(['status', 'exit_note']).where('id', '=', id).executeTakeFirstOrThrow(), { status: 'open', exit_note: null }, 'still open')
  t.notOk((await discrepancies(db)).some((row) => row.kind === 'broker_flat'), 'not ended as broker-flat')
})

t.test('a pass under way when the feed is dropped here ends nothing and records no difference: the fills it listed were not applied', async (t) => {
  // The order-path model found it: an instance closing (or giving up its shard) drops the keeper's book
  // while a pass waits on the broker; the pass then compared the broker with trades its fills never reached.
  const { broker, app, db } = await connectedTrader(t, { overrides: { POSITION_RECONCILE_MS: '600000' } })
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  broker.holdEvents(true)
  broker.setPrice('MNQZ6', '20940')
  t.equal(netMnq(broker), 0, 'the stop filled at the broker; the keeper has not seen it')
  const seen = () => broker.requests.filter((request) => request.endpoint === 'fill/list').length
  const before = seen()
  broker.interfere('fill/list', { kind: 'late' }, 1)
  const pass = app.trading.reconciler.reconcileAll()
  await eventually(() => seen() > before)
  app.trading.keeper.sessionClosed('u-0')
  broker.release('fill/list')
  await pass
  t.match(await tradeOfRecord(db, record.id), { status: 'open', exit_note: null }, 'the trade is not ended without its exit price and PnL')
  t.same(await discrepancies(db), [], 'no difference recorded')
  broker.holdEvents(false)
})

t.test("a pass that compares nothing (its feed dropped meanwhile) leaves no earlier standing difference's text looking current", async (t) => {
  // The pass under way when the feed is dropped returns before comparing: the reconciler keeps the last
  // pass's standing text in memory, but only a connected feed's status shows it, and the session opened
  // again clears it before its status says connected (docs/decisions/broker-connector.md). Passed on main;
  // fails (1 assert) when that clear is taken out.
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { POSITION_RECONCILE_MS: '600000', FEED_STATUS_REFRESH_MS: '500' })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0' })
  await connect(app, 'u-0')
  const placed = broker.placeOso(ACCOUNT, {
    accountSpec: 'DEMO9000', accountId: ACCOUNT, action: 'Buy', symbol: 'MNQZ6', orderQty: 2, orderType: 'Market', isAutomated: false,
    bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 20900 },
  })
  const contractId = broker.orders().find((order) => order.id === placed.orderId)?.contractId as number
  await app.trading.reconciler.reconcileAll()
  t.match(await statusSaying(app, /broker and trades differ/), /the broker holds \+2 contract \d+ and none of our open trades is in it \(left as it is/, 'a standing difference is shown')

  const lastSeen = async () => (await discrepancies(db)).map((row) => row.last_seen_at.toISOString())
  const seenBefore = await lastSeen()
  const seen = () => broker.requests.filter((request) => request.endpoint === 'fill/list').length
  const before = seen()
  broker.interfere('fill/list', { kind: 'late' }, 1)
  const pass = app.trading.reconciler.reconcileAll()
  await eventually(() => seen() > before)
  await feedCommand(app, 'u-0', 'stop')
  await eventually(() => app.feeds.session('u-0') === null)
  broker.release('fill/list')
  await pass
  t.same(await lastSeen(), seenBefore, 'the pass compared nothing: the standing row is not seen again')
  const stopped = await statusOf(app, 'u-0')
  t.not(stopped?.state, 'connected', `the dropped feed's status is not connected (${stopped?.state})`)

  // The difference goes while the feed is away, and the session opened again fails its first pass: its
  // status says it is not reconciled yet, never the earlier difference as if it stood now.
  broker.liquidate(ACCOUNT, contractId)
  t.equal(netPosition(broker, contractId), 0, 'flat at the broker')
  broker.interfere('fill/list', { kind: 'server_error' }, 1)
  await connect(app, 'u-0')
  const connected = await seenState(app, 'u-0', 'connected')
  t.match(connected.detail, /positions not yet reconciled with the broker/, 'the first pass of the session opened again failed')
  t.notMatch(connected.detail ?? '', /broker and trades differ/, `no earlier difference shown as standing (${connected.detail})`)
  await app.trading.reconciler.reconcileAll()
  t.equal(app.trading.reconciler.statusNote('u-0'), null, 'nothing to tell once compared again')
  t.ok((await discrepancies(db)).every((row) => row.resolved_at !== null), 'the standing row is resolved by the pass of the new session')
})
