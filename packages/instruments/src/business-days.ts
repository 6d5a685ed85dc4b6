/**
 * Business days: Monday to Friday except CME Group's full-day holidays (exchange-holidays.ts). Apart from
 * calendar-days.ts, which exchange-holidays.ts builds on, so the two do not import each other.
 */
import { dayNumber, type DayNumber, weekdayOf } from './calendar-days.ts'
import { isExchangeHoliday } from './exchange-holidays.ts'

export function isBusinessDay(day: DayNumber): boolean {
  const weekday = weekdayOf(day)
  return weekday !== 0 && weekday !== 6 && !isExchangeHoliday(day)
}

/** The `count`-th business day strictly before `day` (count >= 1). */
export function businessDaysBefore(day: DayNumber, count: number): DayNumber {
  let current = day
  for (let left = count; left > 0; ) {
    current -= 1
    if (isBusinessDay(current)) left -= 1
  }
  return current
}

export function lastBusinessDayOfMonth(year: number, month: number): DayNumber {
  let current = dayNumber(year, month + 1, 1) - 1
  while (!isBusinessDay(current)) current -= 1
  return current
}
