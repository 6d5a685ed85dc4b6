import t from 'tap'
import { DeadLetterV1, contract } from '@signals/contracts'
import type { Database, Kysely, NewTrade } from '@signals/db'
import { Durables } from '../../src/intake/plugin.ts'
import { build, buildInstance, drained, eventually, makeAlert, publishAlert, seedUsers } from '../helper.ts'

async function openTrade(db: Kysely<Database>, trade: Omit<NewTrade, 'status'>): Promise<number> {
  const row = await db.insertInto('trades').values({ ...trade, status: 'open' }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

const resultAlert = (symbol: string, root: string | null, result: 'TP' | 'SL' | 'Exit', exitPrice: number) =>
  makeAlert({ kind: 'result', symbol, root, result, exitPrice, action: null, entryPrice: null, sl: null, tp: null, userId: null })

async function trade(db: Kysely<Database>, id: number) {
  return db.selectFrom('trades').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

t.test('result alerts close the right trades with exact pnl for LONG and SHORT on several contracts', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 3, { prefix: 'u' })
  const nqLong = await openTrade(db, { user_id: 'u-0', symbol: 'NQZ6', root: 'NQ', side: 'LONG', quantity: '2', entry_price: '21000.25' })
  const nqShort = await openTrade(db, { user_id: 'u-1', symbol: 'NQ1!', root: 'NQ', side: 'SHORT', quantity: '1', entry_price: '21050' })
  const mnq = await openTrade(db, { user_id: 'u-2', symbol: 'MNQZ6', root: 'MNQ', side: 'LONG', quantity: '3', entry_price: '21000' })
  const es = await openTrade(db, { user_id: 'u-0', symbol: 'ES1!', root: 'ES', side: 'LONG', quantity: '1', entry_price: '5000.25' })
  const mcl = await openTrade(db, { user_id: 'u-1', symbol: 'MCLZ6', root: 'MCL', side: 'SHORT', quantity: '3', entry_price: '70.10' })
  const mym = await openTrade(db, { user_id: 'u-2', symbol: 'MYM1!', root: 'MYM', side: 'LONG', quantity: '1', entry_price: '39000' })
  const gc = await openTrade(db, { user_id: 'u-0', symbol: 'GCG7', root: 'GC', side: 'SHORT', quantity: '1', entry_price: '2000.1' })

  await publishAlert(app, resultAlert('CME_MINI:NQ1!', 'NQ', 'TP', 21100.75))
  await publishAlert(app, resultAlert('ES1!', 'ES', 'SL', 4990.5))
  await publishAlert(app, resultAlert('MCL1!', 'MCL', 'Exit', 70.33))
  await publishAlert(app, resultAlert('MYMH7', 'MYM', 'TP', 39012))
  await publishAlert(app, resultAlert('COMEX:GC1!', 'GC', 'SL', 2010.3))
  await drained(app, 'ALERTS', Durables.result)

  t.match(await trade(db, nqLong), { status: 'closed', result: 'TP', exit_price: '21100.75000000', pnl: '4020.00' }, '(21100.75-21000.25) x 2 x 20')
  t.match(await trade(db, nqShort), { status: 'closed', result: 'TP', pnl: '-1015.00' }, '-(21100.75-21050) x 1 x 20')
  t.match(await trade(db, mnq), { status: 'open', result: null, pnl: null }, 'MNQ is another contract: untouched')
  t.match(await trade(db, es), { status: 'closed', result: 'SL', exit_price: '4990.50000000', pnl: '-487.50' }, '(4990.5-5000.25) x 1 x 50')
  t.match(await trade(db, mcl), { status: 'closed', result: 'Session End', pnl: '-69.00' }, 'Exit is stored as Session End; -(70.33-70.10) x 3 x 100')
  t.match(await trade(db, mym), { status: 'closed', result: 'TP', pnl: '6.00' }, '12 x 1 x 0.5')
  t.match(await trade(db, gc), { status: 'closed', result: 'SL', pnl: '-1020.00' }, '-(2010.3-2000.1) x 1 x 100')
  const closed = await trade(db, nqLong)
  t.ok(closed.closed_at instanceof Date, 'closed_at set')
  t.ok(closed.close_alert_id, 'the closing alert is recorded')
})

t.test('a redelivered result alert, or a second instance, never closes a trade twice', async (t) => {
  const { app, db, config } = await build(t)
  const second = await buildInstance(t, config)
  await seedUsers(db, 30, { prefix: 'u' })
  const ids: number[] = []
  for (let i = 0; i < 30; i++) {
    ids.push(await openTrade(db, { user_id: `u-${i}`, symbol: 'ESZ6', root: 'ES', side: i % 2 ? 'SHORT' : 'LONG', quantity: '1', entry_price: '5000' }))
  }
  const first = resultAlert('ES1!', 'ES', 'TP', 5010)
  await Promise.all([
    publishAlert(app, first, 'alerts.result', 'one'),
    publishAlert(second, first, 'alerts.result', 'two'),
    publishAlert(app, first, 'alerts.result', 'three'),
  ])
  await drained(app, 'ALERTS', Durables.result)
  // A later result for the same symbol finds nothing open: the first close stands.
  const later = resultAlert('ES1!', 'ES', 'SL', 4000)
  await publishAlert(second, later)
  await drained(app, 'ALERTS', Durables.result)
  const rows = await db.selectFrom('trades').selectAll().where('id', 'in', ids).orderBy('id').execute()
  t.ok(rows.every((row) => row.status === 'closed' && row.result === 'TP' && row.exit_price === '5010.00000000'), 'all closed by the first alert')
  t.ok(rows.every((row) => row.close_alert_id === first.alertId))
  t.same([...new Set(rows.map((row) => row.pnl))].sort(), ['-500.00', '500.00'])
})

t.test('a result alert with no open trade is acknowledged and changes nothing', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'u' })
  const other = await openTrade(db, { user_id: 'u-0', symbol: 'CLZ6', root: 'CL', side: 'LONG', quantity: '1', entry_price: '70' })
  await publishAlert(app, resultAlert('NQ1!', 'NQ', 'TP', 21000))
  await drained(app, 'ALERTS', Durables.result)
  t.match(await trade(db, other), { status: 'open', pnl: null })
})

t.test('a symbol outside the contract table closes its trades with a point value of 1', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'u' })
  const id = await openTrade(db, { user_id: 'u-0', symbol: 'AAPL', root: null, side: 'LONG', quantity: '10', entry_price: '150.5' })
  await publishAlert(app, resultAlert('AAPL', null, 'TP', 151.01))
  await drained(app, 'ALERTS', Durables.result)
  t.match(await trade(db, id), { status: 'closed', pnl: '5.10' }, '(151.01-150.5) x 10 x 1')
})

t.test('targeted routing closes only the payload user\'s trades', async (t) => {
  const { app, db } = await build(t, { ALERT_ROUTING: 'targeted' })
  await seedUsers(db, 2, { prefix: 'u' })
  const mine = await openTrade(db, { user_id: 'u-0', symbol: 'NQ1!', root: 'NQ', side: 'LONG', quantity: '1', entry_price: '100' })
  const theirs = await openTrade(db, { user_id: 'u-1', symbol: 'NQ1!', root: 'NQ', side: 'LONG', quantity: '1', entry_price: '100' })
  await publishAlert(app, { ...resultAlert('NQ1!', 'NQ', 'SL', 99), userId: 'u-0' })
  await drained(app, 'ALERTS', Durables.result)
  t.match(await trade(db, mine), { status: 'closed', pnl: '-20.00' })
  t.match(await trade(db, theirs), { status: 'open' })

  // Issue 22's audit: a result alert naming no user reached every trader's trades under targeted routing.
  const anonymous = resultAlert('NQ1!', 'NQ', 'SL', 1)
  await publishAlert(app, anonymous)
  await drained(app, 'ALERTS', Durables.result)
  t.match(await trade(db, theirs), { status: 'open', exit_price: null }, 'a result naming no user reaches no one when routing is targeted')
  t.equal(await db.selectFrom('flatten_requests').select('id').where('user_id', '=', 'u-1').executeTakeFirst(), undefined, 'and flattens nothing')
})

t.test('a result alert without a result is dead-lettered with its reason; one without a price leaves trades with no broker position open', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 1, { prefix: 'u' })
  const legacy = await openTrade(db, { user_id: 'u-0', symbol: 'NQ1!', root: 'NQ', side: 'LONG', quantity: '1', entry_price: '100' })
  const reasons: string[] = []
  await app.bus.consume({
    stream: 'DEAD_LETTERS',
    durable: 'test-dlq',
    subject: 'dlq.alerts.result',
    contract: contract(DeadLetterV1),
    handler: async (letter) => {
      reasons.push(letter.reason)
    },
  })
  await publishAlert(app, { ...resultAlert('NQ1!', 'NQ', 'TP', 1), result: null })
  await eventually(() => reasons.length === 1)
  t.same(reasons, ['a result alert without a result (TP, SL or Exit)'])
  await publishAlert(app, { ...resultAlert('NQ1!', 'NQ', 'TP', 1), exitPrice: null })
  await drained(app, 'ALERTS', Durables.result)
  t.match(await trade(db, legacy), { status: 'open', exit_price: null }, 'no price is guessed: the trade stays open')
  t.equal(reasons.length, 1, 'and the alert is not a dead letter (positions with a broker behind them would have been flattened)')
})

t.test('closes is honoured for trades without a broker too: exit_short closes shorts at the alert\'s price, longs stay open', async (t) => {
  const { app, db } = await build(t)
  await seedUsers(db, 2, { prefix: 'u' })
  const long = await openTrade(db, { user_id: 'u-0', symbol: 'ESZ6', root: 'ES', side: 'LONG', quantity: '1', entry_price: '5000' })
  const short = await openTrade(db, { user_id: 'u-1', symbol: 'ESZ6', root: 'ES', side: 'SHORT', quantity: '2', entry_price: '5000' })
  await publishAlert(app, { ...resultAlert('ES1!', 'ES', 'Exit', 4990), closes: 'SHORT' })
  await drained(app, 'ALERTS', Durables.result)
  t.match(await trade(db, short), { status: 'closed', result: 'Session End', exit_price: '4990.00000000', signal_exit_price: '4990.00000000', pnl: '1000.00' }, '10 x 2 x $50')
  t.match(await trade(db, long), { status: 'open' })
})
