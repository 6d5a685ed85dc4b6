import t from 'tap'
import { isoOfDayNumber } from '../src/calendar-days.ts'
import { ROLL_RULES } from '../src/roll-rules.ts'

const lastTradingDay = (root: string, year: number, month: number) => isoOfDayNumber(ROLL_RULES[root]?.lastTradingDay(year, month) ?? Number.NaN)
const rollDay = (root: string, year: number, month: number) => isoOfDayNumber(ROLL_RULES[root]?.rollDay(year, month) ?? Number.NaN)

t.test("last trading days match the exchange's published expiries", async (t) => {
  const published: [string, number, number, string, string][] = [
    ['ES', 2024, 12, '2024-12-20', '3rd Friday'],
    ['ES', 2025, 3, '2025-03-21', '3rd Friday'],
    ['CL', 2024, 12, '2024-11-20', '25 Nov 2024 a Monday: 3 business days before'],
    ['CL', 2025, 1, '2024-12-19', '25 Dec a holiday: 4 business days before'],
    ['MCL', 2024, 12, '2024-11-19', 'one business day before CL'],
    ['NG', 2025, 1, '2024-12-27', '3rd last business day of December 2024'],
    ['GC', 2024, 12, '2024-12-27', '3rd last business day of the contract month'],
    ['SI', 2025, 3, '2025-03-27', '3rd last business day of March 2025'],
    ['ZN', 2024, 12, '2024-12-19', '7 business days before 31 Dec (Christmas skipped)'],
    ['ZB', 2025, 3, '2025-03-20', '7 business days before 31 Mar 2025'],
    ['6E', 2024, 12, '2024-12-16', '2 business days before Wed 18 Dec'],
  ]
  for (const [root, year, month, expected, why] of published) t.equal(lastTradingDay(root, year, month), expected, `${root} ${year}-${month}: ${why}`)
})

t.test("the equity-index roll day is CME's: 8 calendar days before expiry", async (t) => {
  // CME's equity index roll-date table: Sep 2014 expires 9/19, rolls 9/11; Dec 2014 expires 12/19, rolls 12/11.
  t.equal(rollDay('ES', 2014, 9), '2014-09-11')
  t.equal(rollDay('ES', 2014, 12), '2014-12-11')
  t.equal(rollDay('NQ', 2024, 3), '2024-03-07', 'March 2024 starts on a Friday: expiry the 15th, roll the first Thursday, the 7th')
})

t.test('every roll day comes before its last trading day, for every root, over ten years', async (t) => {
  let checked = 0
  for (const [root, rule] of Object.entries(ROLL_RULES)) {
    for (let year = 2024; year < 2034; year += 1) {
      for (const code of rule.cycle) {
        const month = 'FGHJKMNQUVXZ'.indexOf(code) + 1
        const [roll, last] = [rule.rollDay(year, month), rule.lastTradingDay(year, month)]
        if (!(roll < last)) t.fail(`${root} ${year}-${month}: roll ${isoOfDayNumber(roll)} is not before ${isoOfDayNumber(last)}`)
        checked += 1
      }
    }
  }
  t.ok(checked > 900, `${checked} contracts checked`)
})
