import t from 'tap'
import { tradingDayOf } from '../src/index.ts'

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
