import t from 'tap'
import { tradingDayOf } from '../src/index.ts'
import { isExchangeHoliday } from '../src/exchange-holidays.ts'
import { dayNumber } from '../src/calendar-days.ts'

t.test('the trading day rolls at 17:00 Chicago time, in winter (CST) and in summer (CDT)', async (t) => {
  t.equal(tradingDayOf(new Date('2026-11-24T22:59:59Z')), '2026-11-24', '16:59:59 CST')
  t.equal(tradingDayOf(new Date('2026-11-24T23:00:00Z')), '2026-11-25', '17:00 CST')
  t.equal(tradingDayOf(new Date('2026-07-01T21:59:59Z')), '2026-07-01', '16:59:59 CDT')
  t.equal(tradingDayOf(new Date('2026-07-01T22:00:00Z')), '2026-07-02', '17:00 CDT')
  t.equal(tradingDayOf(new Date('2026-11-25T05:30:00Z')), '2026-11-25', 'after midnight UTC, still the evening before in Chicago')
})

t.test('a weekend instant belongs to the Monday session', async (t) => {
  t.equal(tradingDayOf(new Date('2026-11-20T23:30:00Z')), '2026-11-23', 'Friday evening after the close')
  t.equal(tradingDayOf(new Date('2026-11-21T18:00:00Z')), '2026-11-23', 'Saturday')
  t.equal(tradingDayOf(new Date('2026-11-22T20:00:00Z')), '2026-11-23', 'Sunday before the open')
  t.equal(tradingDayOf(new Date('2026-11-22T23:30:00Z')), '2026-11-23', 'Sunday evening session')
  t.equal(tradingDayOf(new Date('2026-11-20T21:00:00Z')), '2026-11-20', 'Friday afternoon')
})

t.test('the daylight-saving switch day', async (t) => {
  t.equal(tradingDayOf(new Date('2026-03-08T21:59:00Z')), '2026-03-09', 'Sunday 16:59 CDT, before the open, belongs to Monday')
  t.equal(tradingDayOf(new Date('2026-03-09T21:59:00Z')), '2026-03-09', 'Monday 16:59 CDT')
  t.equal(tradingDayOf(new Date('2026-03-09T22:00:00Z')), '2026-03-10', 'Monday 17:00 CDT')
})

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
