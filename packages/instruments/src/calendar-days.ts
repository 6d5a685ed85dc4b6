/**
 * Calendar arithmetic on whole days (UTC day numbers, no time of day), for expiry and roll rules.
 * Business days (which need the exchange's holidays) are in business-days.ts.
 */

export type DayNumber = number

const MS_PER_DAY = 86_400_000

export function dayNumber(year: number, month: number, day: number): DayNumber {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY
}

export function dayNumberOfIso(isoDate: string): DayNumber {
  const [year, month, day] = isoDate.split('-').map(Number)
  return dayNumber(year ?? 1970, month ?? 1, day ?? 1)
}

export function isoOfDayNumber(day: DayNumber): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10)
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(day: DayNumber): number {
  return new Date(day * MS_PER_DAY).getUTCDay()
}

/** The n-th given weekday (0 = Sunday) of a month: third Friday = nthWeekday(y, m, 5, 3). */
export function nthWeekday(year: number, month: number, weekday: number, n: number): DayNumber {
  const first = dayNumber(year, month, 1)
  const offset = (weekday - weekdayOf(first) + 7) % 7
  return first + offset + (n - 1) * 7
}

/** The month before (year, month), as [year, month]. */
export function previousMonth(year: number, month: number): [number, number] {
  return month === 1 ? [year - 1, 12] : [year, month - 1]
}
