import t from 'tap'
import { isExchangeHoliday } from '../src/exchange-holidays.ts'
import { dayNumber } from '../src/calendar-days.ts'

t.test('CME full-day holidays', async (t) => {
  const holidays: [number, number, number, string][] = [
    [2026, 1, 1, "New Year's Day"],
    [2026, 1, 19, 'Martin Luther King Jr. Day'],
    [2026, 2, 16, 'Presidents Day'],
    [2026, 4, 3, 'Good Friday 2026'],
    [2027, 3, 26, 'Good Friday 2027'],
    [2026, 5, 25, 'Memorial Day'],
    [2026, 6, 19, 'Juneteenth'],
    [2027, 6, 18, 'Juneteenth on a Saturday, observed Friday'],
    [2026, 7, 3, 'Independence Day on a Saturday, observed Friday'],
    [2026, 9, 7, 'Labor Day'],
    [2026, 11, 26, 'Thanksgiving'],
    [2026, 12, 25, 'Christmas'],
    [2027, 12, 24, 'Christmas on a Saturday, observed Friday'],
    [2023, 1, 2, "New Year's Day on a Sunday, observed Monday"],
  ]
  for (const [year, month, day, name] of holidays) t.ok(isExchangeHoliday(dayNumber(year, month, day)), name)
  for (const [year, month, day, name] of [
    [2021, 12, 31, "New Year's Day 2022 on a Saturday is not observed on the Friday"],
    [2026, 11, 27, 'the day after Thanksgiving'],
    [2026, 12, 24, 'Christmas Eve on a Thursday'],
  ] as const) t.notOk(isExchangeHoliday(dayNumber(year, month, day)), name)
})
