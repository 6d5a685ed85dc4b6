import { exchangeWallClock, tradingDayOf } from '@signals/instruments'

const MINUTE_MS = 60_000
/** Globex is shut from Friday 16:00 to Sunday 17:00 Chicago: a flatten time there has no positions to act on. */
const closedForTheWeekend = (weekday: number, minute: number) => (weekday === 5 && minute >= 16 * 60) || weekday === 6 || (weekday === 0 && minute < 17 * 60)

/**
 * The trading day whose daily flatten (`HH:MM` on the exchange clock) is due at `now`, or null: the last time
 * the exchange clock showed `flattenAt` is due while `now` is still in that time's trading day, so a connector
 * that was down at the time flattens when it is back, the same trading day, and never into the next one
 * (whose positions the flatten was not about). The caller records each trading day's flatten once.
 */
export function dueDailyFlatten(flattenAt: string, now: Date): string | null {
  const target = Number(flattenAt.slice(0, 2)) * 60 + Number(flattenAt.slice(3, 5))
  const { minute } = exchangeWallClock(now)
  const since = (minute - target + 1440) % 1440
  const last = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - since * MINUTE_MS)
  const at = exchangeWallClock(last)
  if (at.minute !== target || closedForTheWeekend(at.weekday, at.minute)) return null
  const day = tradingDayOf(last)
  return day === tradingDayOf(now) ? day : null
}
