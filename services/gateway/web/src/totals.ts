// The activity card's totals over closed trades: the trading day's PnL, the total, the count and the win rate.
import { add, parseDecimal, toPlain } from '@signals/instruments'
import { tradingDayOf } from './trading-day.ts'

/** What the totals read of a closed trade (the /api/trades row has more). */
export interface ClosedTrade {
  closedAt: string
  pnl: string
}

/** Summed exactly (decimal text from the database), then a number for the page to format and draw. */
const pnl = (list: readonly ClosedTrade[]) => Number(toPlain(list.reduce((sum, trade) => add(sum, parseDecimal(trade.pnl)), parseDecimal('0'))))

/** The PnL of the trades closed in one trading day (`YYYY-MM-DD`): the totals' and the daily-loss line's "today". */
export const pnlOfDay = (closed: readonly ClosedTrade[], day: string): number => pnl(closed.filter((trade) => tradingDayOf(trade.closedAt) === day))

/** `today` is a trading day: a trade counts toward the day it closed in. */
export function totalsOf(closed: readonly ClosedTrade[], today: string): { today: number; total: number; count: number; winRate: number | null } {
  const wins = closed.filter((trade) => Number(trade.pnl) > 0).length
  return {
    today: pnlOfDay(closed, today),
    total: pnl(closed),
    count: closed.length,
    winRate: closed.length === 0 ? null : wins / closed.length,
  }
}
