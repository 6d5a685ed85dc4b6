import t from 'tap'
import { CONTRACTS, frontMonthContract } from '../src/index.ts'

/** 15:00 UTC is 09:00 or 10:00 in Chicago: the instant's trading day is its calendar day. */
const midday = (isoDate: string) => new Date(`${isoDate}T15:00:00Z`)
const nameAt = (symbol: string, isoDate: string) => frontMonthContract(symbol, midday(isoDate))?.name ?? null

/**
 * For each family, one roll worked out by hand from the rule in docs/contract-rolls.md: the trading day
 * before the roll, the roll day and the day after, with the contract each should give.
 */
const ROLLS: { roots: string[]; before: string; roll: string; after: string; old: string; next: string; why: string }[] = [
  { roots: ['ES', 'MES', 'NQ', 'MNQ', 'YM', 'MYM', 'RTY', 'M2K'], before: '2026-12-09', roll: '2026-12-10', after: '2026-12-11', old: 'Z6', next: 'H7', why: 'Dec 2026 expires Fri 18th; roll 8 days before, Thu 10th' },
  { roots: ['ES', 'NQ', 'MNQ', 'M2K'], before: '2027-03-10', roll: '2027-03-11', after: '2027-03-12', old: 'H7', next: 'M7', why: 'Mar 2027 expires Fri 19th; roll Thu 11th' },
  { roots: ['CL', 'MCL'], before: '2026-12-11', roll: '2026-12-14', after: '2026-12-15', old: 'F7', next: 'G7', why: 'CL Jan 2027: 25 Dec is a holiday, so trading ends 4 business days before it, Mon 21st; roll 5 business days earlier, Mon 14th' },
  { roots: ['CL', 'MCL'], before: '2027-01-11', roll: '2027-01-12', after: '2027-01-13', old: 'G7', next: 'H7', why: 'CL Feb 2027: 25 Jan is a Monday, trading ends 3 business days before, Wed 20th; roll 5 business days earlier (18th is MLK Day), Tue 12th' },
  { roots: ['NG'], before: '2026-12-18', roll: '2026-12-21', after: '2026-12-22', old: 'F7', next: 'G7', why: 'NG Jan 2027 ends 3 business days before 1 Jan, Tue 29 Dec; roll 5 business days earlier (25th a holiday), Mon 21st' },
  { roots: ['GC', 'MGC', 'SI', 'ZB', 'ZN'], before: '2026-11-23', roll: '2026-11-24', after: '2026-11-25', old: 'Z6', next: '', why: 'first notice for Dec 2026 is Mon 30 Nov; 3 business days before it (26th is Thanksgiving) is Tue 24th' },
  { roots: ['GC', 'MGC'], before: '2027-01-25', roll: '2027-01-26', after: '2027-01-27', old: 'G7', next: 'J7', why: 'first notice for Feb 2027 is Fri 29 Jan; roll Tue 26th' },
  { roots: ['SI', 'ZB', 'ZN'], before: '2027-02-22', roll: '2027-02-23', after: '2027-02-24', old: 'H7', next: '', why: 'first notice for Mar 2027 is Fri 26 Feb; roll Tue 23rd' },
  { roots: ['6E'], before: '2026-12-04', roll: '2026-12-07', after: '2026-12-08', old: 'Z6', next: 'H7', why: 'Dec 2026 ends 2 business days before Wed 16th, Mon 14th; roll 5 business days earlier, Mon 7th' },
]

/** The contract after the roll where it depends on the family's cycle. */
const NEXT_AFTER: Record<string, Record<string, string>> = {
  Z6: { GC: 'G7', MGC: 'G7', SI: 'H7', ZB: 'H7', ZN: 'H7' },
  H7: { SI: 'K7', ZB: 'M7', ZN: 'M7' },
}

t.test('continuous symbols roll on the family calendar: the day before, of and after each roll', async (t) => {
  for (const roll of ROLLS) {
    for (const root of roll.roots) {
      const next = roll.next || (NEXT_AFTER[roll.old]?.[root] as string)
      t.equal(nameAt(`${root}1!`, roll.before), `${root}${roll.old}`, `${root} ${roll.before}: ${roll.why}`)
      t.equal(nameAt(`${root}1!`, roll.roll), `${root}${next}`, `${root} ${roll.roll} is the roll`)
      t.equal(nameAt(`${root}1!`, roll.after), `${root}${next}`, `${root} ${roll.after} after the roll`)
    }
  }
})

t.test('every contract in the table has a roll calendar', async (t) => {
  for (const { root } of CONTRACTS) {
    const front = frontMonthContract(`${root}1!`, midday('2026-11-23'))
    t.ok(front, `${root}1! resolves`)
    t.equal(front?.root, root)
    t.match(front?.name, new RegExp(`^${root}[FGHJKMNQUVXZ]\\d$`))
  }
})

t.test('the session day rolls at 17:00 Chicago time: the evening before the roll already trades the next contract', async (t) => {
  t.equal(frontMonthContract('NQ1!', new Date('2026-12-09T22:59:00Z'))?.name, 'NQZ6', '16:59 CST on the 9th is still the 9th')
  t.equal(frontMonthContract('NQ1!', new Date('2026-12-09T23:00:00Z'))?.name, 'NQH7', '17:00 CST on the 9th opens the 10th')
  t.equal(frontMonthContract('CL1!', new Date('2026-12-13T23:30:00Z'))?.name, 'CLG7', "Sunday evening's session is Monday the 14th")
  t.equal(frontMonthContract('CL1!', new Date('2026-12-12T15:00:00Z'))?.name, 'CLG7', 'a Saturday belongs to Monday the 14th, the roll day')
})

t.test('year boundaries: the cycle wraps into the next year and the year digit follows', async (t) => {
  t.same(frontMonthContract('MNQ1!', midday('2026-12-31')), { root: 'MNQ', name: 'MNQH7', month: 3, year: 2027 })
  t.equal(nameAt('NQ2!', '2026-12-31'), 'NQM7')
  t.equal(nameAt('NQ3!', '2026-11-23'), 'NQM7', 'third from Z6: Z6, H7, M7')
  t.equal(nameAt('NQ1!', '2029-12-12'), 'NQZ9')
  t.same(frontMonthContract('NQ1!', midday('2029-12-13')), { root: 'NQ', name: 'NQH0', month: 3, year: 2030 })
  t.equal(nameAt('CL1!', '2027-11-30'), 'CLF8', 'CL Jan 2028 ends 17 Dec 2027 (25th a Saturday, Christmas observed on the 24th), roll 10th')
  t.equal(nameAt('CL2!', '2027-11-30'), 'CLG8')
  t.equal(nameAt('GC1!', '2026-12-31'), 'GCG7')
})

t.test('the exchange prefix and letter case do not matter; a bare root is the front month', async (t) => {
  t.equal(nameAt('CME_MINI:NQ1!', '2026-11-23'), 'NQZ6')
  t.equal(nameAt('cme_mini:mnq1!', '2026-11-23'), 'MNQZ6')
  t.equal(nameAt('NYMEX:CL1!', '2026-11-23'), 'CLF7')
  t.equal(nameAt('NQ', '2026-11-23'), 'NQZ6')
  t.equal(nameAt('NQ2!', '2026-11-23'), 'NQH7')
})

t.test('an explicit contract is used as sent, its year written with one digit', async (t) => {
  t.same(frontMonthContract('MNQZ6', midday('2026-11-23')), { root: 'MNQ', name: 'MNQZ6', month: 12, year: 2026 })
  t.same(frontMonthContract('NQZ2026', midday('2026-11-23')), { root: 'NQ', name: 'NQZ6', month: 12, year: 2026 })
  t.same(frontMonthContract('NQH27', midday('2026-11-23')), { root: 'NQ', name: 'NQH7', month: 3, year: 2027 })
  t.same(frontMonthContract('CME_MINI:ESU0', midday('2026-11-23')), { root: 'ES', name: 'ESU0', month: 9, year: 2030 })
  t.same(frontMonthContract('NQZ5', midday('2026-11-23')), { root: 'NQ', name: 'NQZ5', month: 12, year: 2025 }, 'a past contract is still used as sent')
  t.equal(nameAt('NQZ6', '2026-12-15'), 'NQZ6', 'sent after the roll, it is not rolled')
  t.equal(nameAt('CLF2027', '2026-11-23'), 'CLF7')
})

t.test('unknown or malformed symbols are null', async (t) => {
  for (const symbol of ['AAPL', '', 'NQ0!', 'NQ1', 'NQA6', 'NQZ123', '{{ticker}}', 'XYZ1!', 'NQ1!!']) {
    t.equal(frontMonthContract(symbol, midday('2026-11-23')), null, JSON.stringify(symbol))
  }
})
