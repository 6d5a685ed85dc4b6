import t from 'tap'
import fc from 'fast-check'
import { tradingDayOf } from '@signals/instruments'
import { pageTradingDay } from './page-modules.ts'

// The page's trading day must be the risk engine's, or "Today's PnL" and the daily loss line disagree with
// what the engine refuses on. Each named instant is checked against the day it should be, too.
const named: Array<[string, string, string]> = [
  ['2026-11-24T22:59:59Z', '2026-11-24', 'Tuesday 16:59:59 CST'],
  ['2026-11-24T23:00:00Z', '2026-11-25', 'Tuesday 17:00 CST'],
  ['2026-07-01T21:59:59Z', '2026-07-01', 'Wednesday 16:59:59 CDT'],
  ['2026-07-01T22:00:00Z', '2026-07-02', 'Wednesday 17:00 CDT'],
  ['2026-07-01T23:00:00Z', '2026-07-02', 'Wednesday 18:00 CDT: already the next day, though the same UTC date'],
  ['2026-11-25T05:30:00Z', '2026-11-25', 'after midnight UTC, still the evening before in Chicago'],
  ['2026-11-25T06:00:00Z', '2026-11-25', 'midnight CST'],
  ['2026-11-20T21:00:00Z', '2026-11-20', 'Friday afternoon'],
  ['2026-11-20T23:00:00Z', '2026-11-23', 'Friday 17:00 CST: Monday'],
  ['2026-11-21T18:00:00Z', '2026-11-23', 'Saturday'],
  ['2026-11-22T20:00:00Z', '2026-11-23', 'Sunday before the open'],
  ['2026-11-22T23:30:00Z', '2026-11-23', 'Sunday evening session'],
  ['2026-03-08T07:59:59Z', '2026-03-09', 'Sunday 01:59:59 CST, just before clocks go forward'],
  ['2026-03-08T08:00:00Z', '2026-03-09', 'Sunday 03:00 CDT, just after'],
  ['2026-03-09T21:59:00Z', '2026-03-09', 'Monday 16:59 CDT after the spring change'],
  ['2026-03-09T22:00:00Z', '2026-03-10', 'Monday 17:00 CDT after the spring change'],
  ['2026-03-06T22:59:00Z', '2026-03-06', 'Friday 16:59 CST before the spring change'],
  ['2026-10-30T21:59:00Z', '2026-10-30', 'Friday 16:59 CDT before the autumn change'],
  ['2026-11-01T06:30:00Z', '2026-11-02', 'Sunday 01:30 CDT, the first of the repeated hour'],
  ['2026-11-01T07:30:00Z', '2026-11-02', 'Sunday 01:30 CST, the second'],
  ['2026-11-02T22:59:00Z', '2026-11-02', 'Monday 16:59 CST after the autumn change'],
  ['2026-11-02T23:00:00Z', '2026-11-03', 'Monday 17:00 CST after the autumn change'],
  ['2025-12-31T22:59:00Z', '2025-12-31', "New Year's Eve 16:59 CST"],
  ['2025-12-31T23:00:00Z', '2026-01-01', "New Year's Eve 17:00 CST: the new year's first day"],
  ['2026-01-01T05:59:00Z', '2026-01-01', 'New Year 23:59 CST on the 31st, midnight UTC passed'],
  ['2026-01-02T23:00:00Z', '2026-01-05', 'first Friday of 2026, 17:00: Monday'],
  ['2027-01-01T23:00:00Z', '2027-01-04', 'New Year 2027 is a Friday: 17:00 belongs to Monday'],
]

t.test('named instants: the page says the same trading day as the risk engine, and the right one', async (t) => {
  for (const [iso, day, name] of named) {
    t.equal(pageTradingDay.tradingDayOf(new Date(iso)), day, name)
    t.equal(tradingDayOf(new Date(iso)), day, `${name}: the engine agrees`)
    t.equal(pageTradingDay.tradingDayOf(iso), day, `${name}: the same from the ISO text a trade carries`)
  }
})

/** Instants every `stepMinutes` over `days` days from `from`, and each 17:00 Chicago ± 1 s in that span. */
function sweep(from: string, days: number, stepMinutes: number): Date[] {
  const start = new Date(from).getTime()
  const instants: Date[] = []
  for (let at = start; at < start + days * 86_400_000; at += stepMinutes * 60_000) instants.push(new Date(at))
  for (let hour = start; hour < start + days * 86_400_000; hour += 3_600_000) instants.push(new Date(hour - 1000), new Date(hour + 1000))
  return instants
}

t.test('every quarter hour and either side of every hour across both daylight-saving changes and new year', async (t) => {
  const instants = [...sweep('2026-03-04T00:00:00Z', 9, 15), ...sweep('2026-10-28T00:00:00Z', 9, 15), ...sweep('2025-12-26T00:00:00Z', 12, 15)]
  const disagreements = instants.filter((at) => pageTradingDay.tradingDayOf(at) !== tradingDayOf(at)).map((at) => at.toISOString())
  t.same(disagreements, [], `${instants.length} instants, no disagreement`)
})

t.test('any instant from 1971 to 2099: the page and the engine agree', async (t) => {
  const instant = fc.date({ min: new Date('1971-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  fc.assert(fc.property(instant, (at) => pageTradingDay.tradingDayOf(at) === tradingDayOf(at)), { numRuns: 2000 })
  t.pass('2000 random instants agree')
})
