// The activity card's totals over closed trades: the trading day's PnL, the total, the count and the win rate.
import { tradingDayOf } from './trading-day.js'

/** `today` is a trading day (`YYYY-MM-DD`, trading-day.js): a trade counts toward the day it closed in. */
export function totalsOf(closed, today) {
  const pnl = (list) => list.reduce((sum, trade) => sum + Number(trade.pnl), 0)
  const wins = closed.filter((trade) => Number(trade.pnl) > 0).length
  return {
    today: pnl(closed.filter((trade) => tradingDayOf(trade.closedAt) === today)),
    total: pnl(closed),
    count: closed.length,
    winRate: closed.length === 0 ? null : wins / closed.length,
  }
}
