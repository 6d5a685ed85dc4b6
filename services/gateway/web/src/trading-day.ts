// The CME trading day, the risk engine's own (packages/instruments/src/trading-day.ts), so the page's "today"
// and its daily groups are the days the daily loss limit is enforced on: the session day rolls at 17:00
// America/Chicago (daylight saving included), and a weekend instant belongs to Monday.
import { tradingDayOf as engineTradingDayOf } from '@signals/instruments'

/** The trading day (`YYYY-MM-DD`) of an instant: a Date or an ISO timestamp such as a trade's closedAt. */
export const tradingDayOf = (at: Date | string): string => engineTradingDayOf(new Date(at))
