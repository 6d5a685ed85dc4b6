import t from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { mnqExit, netMnq, openedTrade, tradesOf } from './exit-helper.ts'

const legs = (broker: Awaited<ReturnType<typeof connectedTrader>>['broker'], recordId: number) =>
  Object.fromEntries(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${recordId}.`)).map((order) => [order.clOrdId?.endsWith('.sl') ? 'stop' : 'target', order]))

t.test('a target filled in part closes that part; the rest stays open with its stop resized at the broker, then closes at the stop', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  broker.setLiquidity('MNQZ6', 2)

  broker.setPrice('MNQZ6', '21100')
  await eventually(async () => (await tradesOf(db, 'u-0')).length === 2)
  const [open, part] = await tradesOf(db, 'u-0')
  t.match(open, { id: (await tradeOfRecord(db, record.id))!.id, status: 'open', quantity: '3.0000' }, 'the trade keeps 3 open')
  t.match(part, { status: 'closed', result: 'TP', quantity: '2.0000', exit_price: '21100.00000000', pnl: '400.00', parent_trade_id: open!.id }, 'the 2 filled at the target are closed: 100 points x 2 x $2')
  await eventually(() => legs(broker, record.id).stop?.orderQty === 3)
  t.match(legs(broker, record.id), { stop: { orderQty: 3, ordStatus: 'Working' }, target: { orderQty: 5, filledQty: 2, ordStatus: 'Working' } }, 'the stop now covers the 3 left')

  broker.setPrice('MNQZ6', '20950')
  await eventually(async () => (await tradesOf(db, 'u-0')).length === 3)
  await eventually(() => legs(broker, record.id).target?.orderQty === 3)
  t.match(legs(broker, record.id).target, { orderQty: 3, filledQty: 2 }, 'after 2 of the stop filled, the target covers the 1 left (2 filled + 1)')
  broker.setPrice('MNQZ6', '20949.75')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  const rows = await tradesOf(db, 'u-0')
  t.same(rows.map((row) => [row.status, row.result, row.quantity, row.exit_price, row.pnl]), [
    ['closed', 'SL', '3.0000', '20950.00000000', '-300.00'],
    ['closed', 'TP', '2.0000', '21100.00000000', '400.00'],
  ], 'the stop\'s two fills close the rest as one SL of 3 at the stop (-50 x 3 x $2); no piece is left over')
  t.equal(netMnq(broker), 0, 'flat')
  t.equal(broker.balance(9000), '50100', 'the broker realized what the trades show: 400 - 300')
})

t.test('a manual reduction without our tag is allocated first in, first out by quantity; a fully closed trade\'s legs are cancelled, a reduced one\'s resized', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  const first = await openedTrade(db, record.id)

  broker.placeManualOrder('trader0', { symbol: 'MNQZ6', action: 'Sell', qty: 1 })
  await eventually(async () => (await tradesOf(db, 'u-0')).length === 2)
  t.match(await tradeOfRecord(db, record.id), { status: 'open', quantity: '4.0000' }, 'a 1-lot reduction closes 1 of 5, not the trade')
  t.match((await tradesOf(db, 'u-0'))[1], { status: 'closed', result: 'Session End', quantity: '1.0000', exit_price: '21000.00000000', pnl: '0.00', parent_trade_id: first.id })
  await eventually(() => legs(broker, record.id).stop?.orderQty === 4 && legs(broker, record.id).target?.orderQty === 4)
  t.pass('both legs resized to the 4 left')

  // A second trade in the contract, added by hand at the broker (2 more) and known to us, opened later.
  broker.placeManualOrder('trader0', { symbol: 'MNQZ6', action: 'Buy', qty: 2 })
  await sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, contract, broker_contract_id, broker_account_id, opened_at)
    VALUES ('u-0', 'MNQZ6', 'MNQ', 'LONG', 2, 21000, 'MNQZ6', ${first.broker_contract_id}, 9000, now())`.execute(db)
  broker.setPrice('MNQZ6', '21005')
  broker.placeManualOrder('trader0', { symbol: 'MNQZ6', action: 'Sell', qty: 5 })
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed' && (await tradesOf(db, 'u-0')).length === 4)
  const rows = await tradesOf(db, 'u-0')
  t.match(rows[0], { status: 'closed', quantity: '4.0000', exit_price: '21005.00000000', pnl: '40.00' }, 'the oldest trade closes first: its 4 at 21005')
  t.match(rows[2], { status: 'open', quantity: '1.0000' }, 'the later trade keeps 1 of 2')
  t.match(rows[3], { status: 'closed', quantity: '1.0000', parent_trade_id: rows[2]!.id, pnl: '10.00' })
  await eventually(() => legs(broker, record.id).stop?.ordStatus === 'Canceled' && legs(broker, record.id).target?.ordStatus === 'Canceled')
  t.pass('the closed trade\'s stop and target were cancelled (they would have sold the later trade\'s contract)')
  t.equal(netMnq(broker), 1)
})

t.test('a flatten filled in parts closes the trade once, at the weighted price of its fills', async (t) => {
  const { broker, app, db } = await connectedTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  broker.setLiquidity('MNQZ6', 3)
  broker.setPrice('MNQZ6', '21010')
  await publishAlert(app, mnqExit({ exitPrice: 21009 }))
  await eventually(() => netMnq(broker) === 2)
  await eventually(async () => (await tradeOfRecord(db, record.id))?.quantity === '2.0000')
  broker.setPrice('MNQZ6', '21012')
  await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'closed')
  const rows = await tradesOf(db, 'u-0')
  t.equal(rows.length, 1, 'one trade, not one per fill')
  t.match(rows[0], { status: 'closed', result: 'Session End', quantity: '5.0000', exit_price: '21010.80000000', pnl: '108.00', signal_exit_price: '21009.00000000' },
    '(3 x 21010 + 2 x 21012) / 5; pnl (10 x 3 + 12 x 2) x $2')
  t.equal(netMnq(broker), 0)
})
