import type { Test } from 'tap'
import { sql } from '@signals/db'
import { eventually, publishAlert } from '../../helper.ts'
import { connect, liveTrader, mnqEntry, paperBroker, settledRecord, tradeOfRecord, tradingApp } from '../../trading-helper.ts'

/**
 * The risk watchdog against the paper broker: its own broker (prices are the broker's) and connector, with
 * MNQZ6 at 21000; trader u-0 is trader0 (account 9000, paper demo) with the case's risk config. `watchdogMs`:
 * the watchdog's interval (a long one leaves every pass to the test).
 */
export async function watchedTrader(t: Test, riskConfig: unknown, options: { watchdogMs?: string } = {}) {
  const broker = await paperBroker(t)
  broker.setPrice('MNQZ6', '21000')
  const { app, db, config } = await tradingApp(t, broker, { RISK_WATCHDOG_MS: options.watchdogMs ?? '100' })
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
  /** The account's net position (in one contract when given; the first one held otherwise). */
  const netPosition = (contractId?: number) =>
    broker.positions().find((position) => position.accountId === 9000 && (contractId === undefined || position.contractId === contractId))?.netPos ?? 0
  /** The broker's id of a dated contract, as the session finds it. */
  const contractIdOf = async (symbol: string) => (await app.feeds.session('u-0')!.findContract(symbol)).id
  const nextEntry = async () => {
    const entry = mnqEntry({ userId: 'u-0' })
    await publishAlert(app, entry)
    return settledRecord(db, entry.alertId)
  }
  /** Waits until the session's market data holds the quote the broker was set to (it is pushed). */
  const quoted = (price: string, quotedBefore = Infinity, symbol = 'MNQZ6') =>
    eventually(async () => {
      const session = app.feeds.session('u-0')
      const quote = session ? await session.marketPrice(await session.findContract(symbol), 'Sell') : null
      return quote?.kind === 'price' && Number(quote.price) === Number(price) && quote.at.getTime() < quotedBefore
    })
  return { broker, app, db, config, watchdog, openTrade, closedLoss, netPosition, contractIdOf, nextEntry, quoted }
}
