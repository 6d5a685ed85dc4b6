/** The exchange's time zone: every contract the platform trades is a CME Globex future (Chicago time). */
export const EXCHANGE_TIME_ZONE = 'America/Chicago'

// Made at the first use, not at import: a formatter with a time zone maps about 6 MiB of ICU's data from
// the node binary, resident for good, in every service that imports this (docs/decisions/memory.md).
let clock: Intl.DateTimeFormat | undefined
const exchangeClock = () =>
  (clock ??= new Intl.DateTimeFormat('en-US', { timeZone: EXCHANGE_TIME_ZONE, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }))
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** Minutes since midnight on the exchange's wall clock (daylight saving included): 0..1439. */
export function exchangeMinuteOfDay(at: Date): number {
  return exchangeWallClock(at).minute
}

/** The exchange's wall clock at an instant: weekday (0 = Sunday) and minutes since midnight. */
export function exchangeWallClock(at: Date): { weekday: number; minute: number } {
  const parts = Object.fromEntries(exchangeClock().formatToParts(at).map((part) => [part.type, part.value]))
  return { weekday: WEEKDAYS.indexOf(parts.weekday ?? ''), minute: Number(parts.hour) * 60 + Number(parts.minute) }
}
