import { dayNumber, type DayNumber, nthWeekday, weekdayOf } from './calendar-days.ts'

/**
 * CME Group's full-day holidays (no settlement): New Year's Day, Martin Luther King Jr. Day, Presidents
 * Day, Good Friday, Memorial Day, Juneteenth, Independence Day, Labor Day, Thanksgiving, Christmas.
 * A fixed date on a Saturday is observed the Friday before, on a Sunday the Monday after; New Year's Day
 * on a Saturday is not observed (the exchange stays open on 31 December, as in 2021).
 */
export function isExchangeHoliday(day: DayNumber): boolean {
  const year = new Date(day * 86_400_000).getUTCFullYear()
  return holidaysOf(year).has(day)
}

const CACHE = new Map<number, Set<DayNumber>>()

function holidaysOf(year: number): Set<DayNumber> {
  const known = CACHE.get(year)
  if (known) return known
  const MONDAY = 1
  const THURSDAY = 4
  const days = new Set<DayNumber>([
    newYearsDay(year),
    nthWeekday(year, 1, MONDAY, 3),
    nthWeekday(year, 2, MONDAY, 3),
    easterSunday(year) - 2,
    lastWeekday(year, 5, MONDAY),
    observed(dayNumber(year, 6, 19)),
    observed(dayNumber(year, 7, 4)),
    nthWeekday(year, 9, MONDAY, 1),
    nthWeekday(year, 11, THURSDAY, 4),
    observed(dayNumber(year, 12, 25)),
  ])
  CACHE.set(year, days)
  return days
}

function observed(day: DayNumber): DayNumber {
  const weekday = weekdayOf(day)
  return weekday === 6 ? day - 1 : weekday === 0 ? day + 1 : day
}

function newYearsDay(year: number): DayNumber {
  const day = dayNumber(year, 1, 1)
  return weekdayOf(day) === 0 ? day + 1 : day
}

function lastWeekday(year: number, month: number, weekday: number): DayNumber {
  const last = dayNumber(year, month + 1, 1) - 1
  return last - ((weekdayOf(last) - weekday + 7) % 7)
}

/** Gregorian Easter Sunday (anonymous Gregorian algorithm). */
function easterSunday(year: number): DayNumber {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return dayNumber(year, month, day)
}
