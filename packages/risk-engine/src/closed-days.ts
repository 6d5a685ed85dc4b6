import { add, compare, type Decimal, toPlain, tradingDayOf } from '@signals/instruments'
import { decimal } from './money.ts'

/** One closed trade of a user. */
export interface ClosedTradeRecord {
  pnl: string
  closedAt: Date
}

/**
 * One CME trading day of a user's closed trades: everything the account state needs of them. A history
 * is one of these per day traded, however many trades a day holds, so deciding an entry reads a bounded
 * amount (the connector has Postgres sum them; `closedTradingDays` does the same from trades).
 */
export interface ClosedTradingDay {
  /** The trading day, `YYYY-MM-DD` (`tradingDayOf` of the close). */
  day: string
  /** Realized pnl of the day's closes, exact decimal text. */
  pnl: string
  /**
   * The highest running total of the user's realized pnl (every close since the first, oldest first)
   * right after one of this day's closes: what an intraday-realized peak follows.
   */
  highestRunningPnl: string
  /** W (pnl > 0) or L (pnl <= 0) per close of the day, oldest first: the anti-martingale run. */
  results: string
}

/** A user's closed trades summed per trading day, oldest day first; trades closed at the same instant keep their order. */
export function closedTradingDays(trades: readonly ClosedTradeRecord[]): ClosedTradingDay[] {
  const ordered = [...trades].sort((a, b) => a.closedAt.getTime() - b.closedAt.getTime())
  const days: { day: string; pnl: Decimal; highest: Decimal; results: string }[] = []
  let running: Decimal = { units: 0n, scale: 0 }
  for (const trade of ordered) {
    const pnl = decimal(trade.pnl)
    running = add(running, pnl)
    const day = tradingDayOf(trade.closedAt)
    const result = pnl.units > 0n ? 'W' : 'L'
    const current = days.at(-1)
    if (current?.day === day) {
      current.pnl = add(current.pnl, pnl)
      if (compare(running, current.highest) > 0) current.highest = running
      current.results += result
    } else {
      days.push({ day, pnl, highest: running, results: result })
    }
  }
  return days.map(({ day, pnl, highest, results }) => ({ day, pnl: toPlain(pnl), highestRunningPnl: toPlain(highest), results }))
}
