// The CME trading day, as the risk engine counts it (packages/instruments/src/trading-day.ts), so the
// page's "today" and its daily groups are the days the daily loss limit is enforced on: the session day
// rolls at 17:00 America/Chicago (daylight saving included), and a weekend instant belongs to Monday.

const SESSION_OPENS_AT_HOUR = 17

const CHICAGO = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Chicago',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
})

/** The trading day (`YYYY-MM-DD`) of an instant: a Date or an ISO timestamp such as a trade's closedAt. */
export function tradingDayOf(at) {
  const parts = Object.fromEntries(CHICAGO.formatToParts(new Date(at)).map((part) => [part.type, part.value]))
  // The Chicago calendar date as a UTC midnight, so day arithmetic has no time zone in it.
  const day = new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)))
  if (Number(parts.hour) >= SESSION_OPENS_AT_HOUR) day.setUTCDate(day.getUTCDate() + 1)
  const weekday = day.getUTCDay()
  if (weekday === 6) day.setUTCDate(day.getUTCDate() + 2)
  else if (weekday === 0) day.setUTCDate(day.getUTCDate() + 1)
  return day.toISOString().slice(0, 10)
}
