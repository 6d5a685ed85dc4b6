import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { netMnq, openedTrade } from './exit-helper.ts'
import { discrepancies, netPosition, reconcilingTrader } from './reconcile-helper.ts'

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
