import t from 'tap'
import { eventually, identityHeaders, makeAlert, publishAlert } from '../../helper.ts'
import { settledRecord, tradeOfRecord } from '../../trading-helper.ts'
import { watchedTrader } from './watchdog-helper.ts'

t.test('hard daily loss limit reached by an open loss: flattened at the broker, the trade closed with why, the session halted', async (t) => {
  const { broker, app, db, config, watchdog, openTrade, closedLoss, netPosition, nextEntry } = await watchedTrader(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  const tradeRecord = await openTrade()
  await closedLoss('-900')
  t.same(await watchdog.pass(), ['calm'], '900 lost today and the position flat: within the limit')
  t.equal(netPosition(), 5)

  broker.setPrice('MNQZ6', '20980') // 5 x 20 points x $2 = -200 open: 1,100 lost today
  await eventually(async () => (await tradeOfRecord(db, tradeRecord))?.status === 'closed')
  const closed = await tradeOfRecord(db, tradeRecord)
  t.match(closed, {
    result: 'Session End',
    exit_price: '20980.00000000',
    pnl: '-200.00',
    close_reason: "Today's loss of $1,100.00 (open pnl -$200.00) reached the hard daily loss limit of $1,000.00: every position is flattened and trading stops for the session.",
  })
  t.equal(netPosition(), 0, 'flat at the broker')
  t.match(await db.selectFrom('risk_halts').selectAll().where('user_id', '=', 'u-0').execute(), [{ code: 'daily_loss_limit_hard', open_pnl: '-200.00' }], 'the halt is recorded')
  const listed = await app.inject({ method: 'GET', url: '/api/trades?status=closed', headers: identityHeaders(config, 'u-0') })
  const shown = (listed.json() as { trades: { id: string; closeReason: string | null }[] }).trades.find((trade) => trade.id === String(closed?.id))
  t.equal(shown?.closeReason, closed?.close_reason, 'the trader reads why on the trade')

  broker.setPrice('MNQZ6', '21000')
  t.match(await nextEntry(), { status: 'refused', refusal_code: 'daily_loss_limit_hard', reason: /^Trading is halted for this session: today's loss of \$1,100\.00 \(open pnl -\$200\.00\) reached the hard daily loss limit/ }, 'the next entry is refused with why')
  t.equal(netPosition(), 0, 'nothing opened')
})

t.test('soft daily loss limit reached by an open loss: the position is kept, the next entry refused counting it', async (t) => {
  const { broker, watchdog, openTrade, closedLoss, netPosition, nextEntry, quoted } = await watchedTrader(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'soft' } })
  await openTrade()
  await closedLoss('-900')
  broker.setPrice('MNQZ6', '20980')
  await quoted('20980')
  t.same(await watchdog.pass(), ['calm'], 'a soft limit flattens nothing')
  t.equal(netPosition(), 5, 'still held at the broker')
  t.match(await nextEntry(), { status: 'refused', refusal_code: 'daily_loss_limit', reason: /^Today's loss of \$1,100\.00 reached the daily loss limit of \$1,000\.00/ })
  t.equal(netPosition(), 5, 'still held, nothing added')
})

t.test('intraday_unrealized floor: the equity peak an open profit reached is trailed, and an open loss through it flattens and halts', async (t) => {
  const { broker, db, openTrade, netPosition, nextEntry } = await watchedTrader(t, { trailingDrawdown: { mode: 'intraday_unrealized', amount: 600 } })
  const tradeRecord = await openTrade()
  broker.setPrice('MNQZ6', '21060') // +600 open: equity 50,600, the floor follows to 50,000
  await eventually(async () => (await db.selectFrom('equity_peaks').select('peak').where('user_id', '=', 'u-0').executeTakeFirst())?.peak === '50600.00')
  t.equal(netPosition(), 5, 'a profit flattens nothing')

  broker.setPrice('MNQZ6', '20990') // -100 open: equity 49,900, under the floor, still above the stop
  await eventually(async () => (await tradeOfRecord(db, tradeRecord))?.status === 'closed')
  t.match(await tradeOfRecord(db, tradeRecord), {
    exit_price: '20990.00000000',
    close_reason: /^The account's equity of \$49,900\.00 \(open pnl -\$100\.00\) is at or below the intraday_unrealized drawdown floor of \$50,000\.00: every position is flattened/,
  })
  t.equal(netPosition(), 0, 'flat at the broker')
  t.match(await nextEntry(), { status: 'refused', refusal_code: 'daily_loss_limit_hard', reason: /^Trading is halted for this session: the account's equity of \$49,900\.00/ })
})

t.test('a trade open in a halted session (decided as the halt was written) is flattened on the next pass', async (t) => {
  const { db, openTrade, netPosition } = await watchedTrader(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  const tradeRecord = await openTrade()
  await db.insertInto('risk_halts').values({ user_id: 'u-0', code: 'drawdown_floor', reason: 'the floor was reached', open_pnl: '-10' }).execute()
  await eventually(async () => (await tradeOfRecord(db, tradeRecord))?.status === 'closed')
  t.match(await tradeOfRecord(db, tradeRecord), { close_reason: 'Trading is halted for this session (the floor was reached): a trade opened meanwhile is flattened.' })
  t.equal(netPosition(), 0, 'flat at the broker')
})

t.test('an open position without a fresh quote: the watchdog leaves it, and an entry is refused saying why', async (t) => {
  const { broker, app, db, watchdog, openTrade, netPosition, quoted } = await watchedTrader(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  await openTrade()
  broker.setPrice('ESZ6', '6000')
  const anHourAgo = Date.now() - 3_600_000
  broker.setPrice('MNQZ6', '21000', { quotedAt: new Date(anHourAgo) }) // a stopped market
  await quoted('21000', anHourAgo + 1000)
  t.same(await watchdog.pass(), ['unpriced'], 'an unknown open pnl flattens nothing')
  t.equal(netPosition(), 5)
  const entry = makeAlert({ userId: 'u-0', symbol: 'ES1!', root: 'ES', action: 'LONG', entryPrice: 6000, sl: 5990, tp: 6020 })
  await publishAlert(app, entry)
  t.match(await settledRecord(db, entry.alertId), { status: 'refused', refusal_code: 'no_market_price', reason: /^the open MNQZ6 position cannot be priced: its last quote is \d+ s old.*, so today's loss and the drawdown floor cannot be checked$/ })
})

t.test('no position: the watchdog looks at no account and does nothing', async (t) => {
  const { broker, db, watchdog, netPosition, closedLoss } = await watchedTrader(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  await closedLoss('-1500')
  t.same(await watchdog.pass(), [], 'no open trade: no account to look at, even past the limit')
  t.equal(broker.orders().length, 0, 'no order at the broker')
  t.equal(netPosition(), 0)
  t.same(await db.selectFrom('risk_halts').selectAll().execute(), [])
  t.same(await db.selectFrom('flatten_requests').selectAll().execute(), [])
})
