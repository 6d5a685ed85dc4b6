import t from 'tap'
import { publishAlert } from '../../../helper.ts'
import { mnqEntry, settledRecord } from '../../../trading-helper.ts'
import { closedTrade, mnqExit, openedTrade } from '../../../trading/positions/exit-helper.ts'
import { ACCOUNTS, connectedProjectXTrader, eventually, netMnq } from './helper.ts'

// The connector trading through ProjectX: a trader whose saved credentials name broker `projectx` gets a
// ProjectX session, and the entry flow and the trade keeper work through it as through Tradovate.

t.test('an entry alert places an entry with its stop and target; the fill opens the trade; a result alert closes it with its pnl', async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t)
  t.equal(app.feeds.session('u-0')?.snapshot.account.name, 'PAPERX7000', 'the ProjectX session of the saved account')

  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.match(record, { status: 'placed', reason: null })
  const trade = await openedTrade(db, record.id)
  t.equal(netMnq(broker), 5, 'five contracts ($100 of risk each, the $500 budget)')
  t.match(trade, { status: 'open', broker: 'projectx', broker_account_id: '7000', entry_price: '21000.00000000', quantity: 5 })
  const legs = broker.orders().filter((order) => order.parentId === record.entry_order_id && order.ordStatus === 'Working')
  const versions = await app.feeds.session('u-0')!.orderVersions(legs.map((leg) => leg.id))
  t.same([...versions.values()].map((leg) => [leg.orderType, leg.price ?? leg.stopPrice, leg.quantity]).sort(), [['Limit', '21100', 5], ['Stop', '20950', 5]], 'its stop and target work at the broker')
  await eventually(async () => (await db.selectFrom('trades').select(['stop_order_id', 'target_order_id']).where('id', '=', trade.id).executeTakeFirstOrThrow()).stop_order_id !== null)
  const kept = await db.selectFrom('trades').select(['stop_order_id', 'target_order_id']).where('id', '=', trade.id).executeTakeFirstOrThrow()
  t.same([kept.stop_order_id, kept.target_order_id].map(Number).sort(), legs.map((leg) => leg.id).sort(), 'the trade knows its legs')

  broker.setPrice('MNQZ6', '21020.5')
  await publishAlert(app, mnqExit({ closes: 'LONG', result: 'TP', exitPrice: 21020 }))
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { result: 'TP', exit_price: '21020.50000000', pnl: '205.00' }, '(21020.5 - 21000) x 5 x $2')
  await eventually(() => broker.orders().every((order) => order.ordStatus !== 'Working'))
  t.pass('no leg left working after the close')
})

t.test('the stop ProjectX placed closes the trade when it fills, as the stop', async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await openedTrade(db, record.id)
  broker.setPrice('MNQZ6', '20950')
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { result: 'SL', exit_price: '20950.00000000', pnl: '-500.00' }, '(20950 - 21000) x 5 x $2, by the leg tagged .sl')
  await eventually(() => broker.orders().every((order) => order.ordStatus !== 'Working'))
  t.pass('the target was cancelled with it')
})

t.test('an account on Position Brackets refuses a resting entry with why unless PROJECTX_RESTING_OWN_LEGS is on', async (t) => {
  // Filled in parts, a resting entry may see its target close the first part; what fills after that would
  // have no stop. Refused rather than sent by default; taken with the setting (own-legs-restart.test.ts).
  const { broker, app, db } = await connectedProjectXTrader(t, { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' }] })
  const entry = mnqEntry({ entryPrice: 20990, sl: 20940, tp: 21090, raw: { orderType: 'limit' }, entryOrder: { type: 'limit', stopPrice: null, timeInForce: null } })
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'failed', 'refused at the broker step')
  t.match(record.reason, /only market entries are taken/)
  t.equal(broker.orders().filter((order) => order.ordStatus === 'Working').length, 0, 'nothing rests at the broker')
  t.equal(netMnq(broker), 0, 'nothing traded')
})

t.test('an account on Position Brackets: the entry goes out without brackets, and once it fills the connector places the stop and target itself', async (t) => {
  // ProjectX refuses an order carrying brackets on such an account (errorCode 2, "Brackets cannot be used
  // with Position Brackets"); the refusal is certain, so the entry is sent once more without them.
  const { broker, app, db } = await connectedProjectXTrader(t, { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' }] })
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.match(record, { status: 'placed', reason: null })
  const trade = await openedTrade(db, record.id)
  t.equal(netMnq(broker), 5)
  const ours = broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${record.id}`))
  t.equal(ours.filter((order) => order.ordStatus === 'Filled' && !/\.(sl|tp)$/.test(order.clOrdId ?? '')).length, 1, 'one entry filled: the alert never yields two')
  await eventually(() => broker.orders().filter((order) => order.ordStatus === 'Working').length === 2)
  const legs = broker.orders().filter((order) => order.ordStatus === 'Working')
  const versions = await app.feeds.session('u-0')!.orderVersions(legs.map((leg) => leg.id))
  t.same(legs.map((leg) => leg.clOrdId).sort(), [`sig-${record.id}.sl`, `sig-${record.id}.tp`], 'tagged as our legs')
  t.same([...versions.values()].map((leg) => [leg.orderType, leg.price ?? leg.stopPrice, leg.quantity]).sort(), [['Limit', '21100', 5], ['Stop', '20950', 5]], 'sized to what filled, at the alert levels')
  await eventually(async () => (await db.selectFrom('trades').select('target_order_id').where('id', '=', trade.id).executeTakeFirstOrThrow()).target_order_id !== null)
  const kept = await db.selectFrom('trades').select(['stop_order_id', 'target_order_id']).where('id', '=', trade.id).executeTakeFirstOrThrow()
  t.same([kept.stop_order_id, kept.target_order_id].map(Number).sort(), legs.map((leg) => leg.id).sort(), 'the trade knows its legs')

  // A cut connection and a new session send nothing again.
  const first = app.feeds.session('u-0')
  broker.dropConnections()
  await eventually(() => app.feeds.session('u-0') !== null && app.feeds.session('u-0') !== first)
  t.equal(broker.orders().filter((order) => /\.(sl|tp)$/.test(order.clOrdId ?? '')).length, 2, 'the legs were sent once')

  broker.setPrice('MNQZ6', '20950')
  await eventually(() => netMnq(broker) === 0)
  t.match(await closedTrade(db, record.id), { result: 'SL', exit_price: '20950.00000000', pnl: '-500.00' })
  await eventually(() => broker.orders().every((order) => order.ordStatus !== 'Working'))
  t.pass('the target was cancelled when the stop filled')
  t.equal(netMnq(broker), 0, 'flat: never more closed than held')

  // The account is known now: the next entry goes out without brackets at once, under the record's own tag.
  broker.setPrice('MNQZ6', '21000')
  const next = mnqEntry()
  await publishAlert(app, next)
  const second = await settledRecord(db, next.alertId)
  t.match(second, { status: 'placed', reason: null })
  const secondTrade = await openedTrade(db, second.id)
  t.same(broker.orders().filter((order) => order.clOrdId?.startsWith(`sig-${second.id}`) && !/\.(sl|tp)$/.test(order.clOrdId ?? '')).map((order) => [order.clOrdId, order.ordStatus]), [[`sig-${second.id}`, 'Filled']], 'one entry, no refused try before it')
  await eventually(() => broker.orders().filter((order) => order.ordStatus === 'Working' && order.clOrdId?.startsWith(`sig-${second.id}.`)).length === 2)
  t.equal(netMnq(broker), Number(secondTrade.quantity), 'held what the trade says (sized on the balance after the loss)')
})

t.test('a cut hub connection is followed by a new session from a fresh snapshot, which trades', async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t)
  const first = app.feeds.session('u-0')
  broker.dropConnections()
  await eventually(() => app.feeds.session('u-0') !== null && app.feeds.session('u-0') !== first)
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  t.equal(record.status, 'placed', 'the new session placed the entry')
  await openedTrade(db, record.id)
  t.equal(netMnq(broker), 5)
})

t.test('an Order/place whose answer is lost after ProjectX carried it out is found by its customTag: placed once', async (t) => {
  const { broker, app, db } = await connectedProjectXTrader(t)
  broker.interfere('Order/place', { kind: 'server_error', carriedOut: true })
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId, 30_000)
  const entries = broker.orders().filter((order) => order.clOrdId === `sig-${record.id}`)
  t.equal(entries.length, 1, 'one entry under the tag')
  t.match(record, { status: 'placed', send_attempts: 1, entry_order_id: String(entries[0]?.id) })
  t.equal(broker.requests.filter((request) => request.endpoint === 'Order/place').length, 1, 'sent once')
  await openedTrade(db, record.id)
  t.equal(netMnq(broker), 5)
})
