import t, { type Test } from 'tap'
import { sql } from '@signals/db'
import { eventually, identityHeaders, makeAlert, publishAlert } from '../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../trading-helper.ts'

/**
 * The risk watchdog against the paper broker: a price move against an open trade, with no alert, is
 * checked against the hard daily loss limit and the drawdown floor with the open pnl. Each case has its
 * own broker (prices are the broker's) and connector; trader u-0 is trader0 with the case's risk config.
 */
async function trading(t: Test, riskConfig: unknown) {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { RISK_WATCHDOG_MS: '100' })
  await liveTrader(db, config, { userId: 'u-0', username: 'trader0', riskConfig })
  await connect(app, 'u-0')
  const watchdog = app.trading.watchdog
  if (!watchdog) throw new Error('an instance with feeds runs the risk watchdog')
  /** An MNQ long of 5 at 21000 (stop 20950, target 21100), filled and open. */
  const openTrade = async () => {
    const entry = mnqEntry({ userId: 'u-0' })
    await publishAlert(app, entry)
    const record = await settledRecord(db, entry.alertId)
    t.equal(record.status, 'placed', 'the entry is placed')
    await eventually(async () => (await tradeOfRecord(db, record.id))?.status === 'open')
    t.match(await tradeOfRecord(db, record.id), { quantity: '5', entry_price: '21000.00000000' })
    return record.id
  }
  /** A trade closed today at a loss, outside the broker (the day's realized pnl). */
  const closedLoss = (pnl: string) =>
    sql`INSERT INTO trades (user_id, symbol, root, side, quantity, entry_price, exit_price, status, result, pnl, closed_at)
      VALUES ('u-0', 'MNQ1!', 'MNQ', 'LONG', 1, 21000, 20000, 'closed', 'SL', ${pnl}, now())`.execute(db)
  const netPosition = () => broker.positions().find((position) => position.accountId === 9000)?.netPos ?? 0
  const nextEntry = async () => {
    const entry = mnqEntry({ userId: 'u-0' })
    await publishAlert(app, entry)
    return settledRecord(db, entry.alertId)
  }
  /** Waits until the session's market data holds the MNQZ6 quote the broker was set to (it is pushed). */
  const quoted = (price: string, quotedBefore = Infinity) =>
    eventually(async () => {
      const session = app.feeds.session('u-0')
      const quote = session ? await session.marketPrice(await session.findContract('MNQZ6'), 'Sell') : null
      return quote?.kind === 'price' && Number(quote.price) === Number(price) && quote.at.getTime() < quotedBefore
    })
  return { broker, app, db, config, watchdog, openTrade, closedLoss, netPosition, nextEntry, quoted }
}

t.test('hard daily loss limit reached by an open loss: flattened at the broker, the trade closed with why, the session halted', async (t) => {
  const { broker, app, db, config, watchdog, openTrade, closedLoss, netPosition, nextEntry } = await trading(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
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
  const { broker, watchdog, openTrade, closedLoss, netPosition, nextEntry, quoted } = await trading(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'soft' } })
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
  const { broker, db, openTrade, netPosition, nextEntry } = await trading(t, { trailingDrawdown: { mode: 'intraday_unrealized', amount: 600 } })
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
  const { db, openTrade, netPosition } = await trading(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  const tradeRecord = await openTrade()
  await db.insertInto('risk_halts').values({ user_id: 'u-0', code: 'drawdown_floor', reason: 'the floor was reached', open_pnl: '-10' }).execute()
  await eventually(async () => (await tradeOfRecord(db, tradeRecord))?.status === 'closed')
  t.match(await tradeOfRecord(db, tradeRecord), { close_reason: 'Trading is halted for this session (the floor was reached): a trade opened meanwhile is flattened.' })
  t.equal(netPosition(), 0, 'flat at the broker')
})

t.test('an open position without a fresh quote: the watchdog leaves it, and an entry is refused saying why', async (t) => {
  const { broker, app, db, watchdog, openTrade, netPosition, quoted } = await trading(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
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
  const { broker, db, watchdog, netPosition, closedLoss } = await trading(t, { dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
  await closedLoss('-1500')
  t.same(await watchdog.pass(), [], 'no open trade: no account to look at, even past the limit')
  t.equal(broker.orders().length, 0, 'no order at the broker')
  t.equal(netPosition(), 0)
  t.same(await db.selectFrom('risk_halts').selectAll().execute(), [])
  t.same(await db.selectFrom('flatten_requests').selectAll().execute(), [])
})
