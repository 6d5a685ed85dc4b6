/** The exchange's time zone: every contract the platform trades is a CME Globex future (Chicago time). */
export const EXCHANGE_TIME_ZONE = 'America/Chicago'

const CLOCK = new Intl.DateTimeFormat('en-US', { timeZone: EXCHANGE_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })

/** Minutes since midnight on the exchange's wall clock (daylight saving included): 0..1439. */
export function exchangeMinuteOfDay(at: Date): number {
  const parts = Object.fromEntries(CLOCK.formatToParts(at).map((part) => [part.type, part.value]))
  return Number(parts.hour) * 60 + Number(parts.minute)
}
