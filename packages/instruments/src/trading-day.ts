import { dayNumberOfIso, isoOfDayNumber, weekdayOf } from './calendar-days.ts'

/** CME Globex sessions open at 17:00 Chicago time and belong to the next calendar day's trading day. */
const SESSION_OPENS_AT_HOUR = 17

// Made at the first use, not at import: a formatter with a time zone maps about 6 MiB of ICU's data from
// the node binary, resident for good, in every service that imports this (docs/decisions/memory.md).
let chicago: Intl.DateTimeFormat | undefined
const chicagoClock = () =>
  (chicago ??= new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Chicago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }))

/**
 * The CME trading day (`YYYY-MM-DD`) an instant belongs to: the session day rolls at 17:00
 * America/Chicago (daylight saving included), and a weekend instant belongs to Monday's session,
 * the next one to open.
 */
export function tradingDayOf(at: Date): string {
  // The answer can only change on a whole UTC hour (17:00 Chicago is 22:00 or 23:00 UTC): one time-zone
  // lookup per hour, remembered, as account histories ask for the same hours again and again.
  const hour = Math.floor(at.getTime() / MS_PER_HOUR)
  const remembered = DAY_OF_HOUR.get(hour)
  if (remembered !== undefined) return remembered
  const day = computeTradingDay(at)
  if (DAY_OF_HOUR.size >= MAX_REMEMBERED_HOURS) DAY_OF_HOUR.clear()
  DAY_OF_HOUR.set(hour, day)
  return day
}

const MS_PER_HOUR = 3_600_000
/** About eleven years of hours; the table is emptied when full. */
const MAX_REMEMBERED_HOURS = 100_000
const DAY_OF_HOUR = new Map<number, string>()

function computeTradingDay(at: Date): string {
  const parts = Object.fromEntries(chicagoClock().formatToParts(at).map((part) => [part.type, part.value]))
  let day = dayNumberOfIso(`${parts.year}-${parts.month}-${parts.day}`)
  if (Number(parts.hour) >= SESSION_OPENS_AT_HOUR) day += 1
  const weekday = weekdayOf(day)
  if (weekday === 6) day += 2
  else if (weekday === 0) day += 1
  return isoOfDayNumber(day)
}
