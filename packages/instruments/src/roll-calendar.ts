import { dayNumberOfIso } from './calendar-days.ts'
import { rootOf } from './contracts.ts'
import { ROLL_RULES, type RollRule } from './roll-rules.ts'
import { tradingDayOf } from './trading-day.ts'

/** One dated futures contract, named as Tradovate names it (`MNQZ6`: root, month code, last digit of the year). */
export interface DatedContract {
  root: string
  name: string
  /** 1 = January ... 12 = December. */
  month: number
  /** Four-digit year. */
  year: number
}

const MONTH_CODES = 'FGHJKMNQUVXZ'

function dated(root: string, month: number, year: number): DatedContract {
  return { root, name: `${root}${MONTH_CODES[month - 1]}${year % 10}`, month, year }
}

/**
 * The contract a symbol means at an instant. A continuous symbol (`MNQ1!`, `CME_MINI:NQ1!`, a bare `NQ`)
 * is the front month by the roll calendar of its family (`NQ2!` the one after it); an explicit contract
 * (`MNQZ6`, `NQZ26`, `NQZ2026`) is used as sent, its year written with one digit. Null when the symbol
 * names no known contract.
 */
export function frontMonthContract(symbol: string, at: Date): DatedContract | null {
  const root = rootOf(symbol)
  if (root === null) return null
  const rule = ROLL_RULES[root]
  if (rule === undefined) return null
  const rest = (symbol.trim().toUpperCase().split(':').pop() ?? '').slice(root.length)
  if (rest === '') return nthContract(root, rule, 1, at)
  const continuous = /^(\d{1,2})!$/.exec(rest)
  if (continuous) {
    const position = Number(continuous[1])
    return position >= 1 ? nthContract(root, rule, position, at) : null
  }
  return explicitContract(root, rest, at)
}

/** The position-th contract of the cycle whose roll day is still ahead of the instant's trading day. */
function nthContract(root: string, rule: RollRule, position: number, at: Date): DatedContract {
  const today = dayNumberOfIso(tradingDayOf(at))
  let year = at.getUTCFullYear() - 1
  let skipped = 0
  for (;;) {
    for (const code of rule.cycle) {
      const month = MONTH_CODES.indexOf(code) + 1
      if (rollDayOf(root, rule, year, month) <= today) continue
      skipped += 1
      if (skipped === position) return dated(root, month, year)
    }
    year += 1
  }
}

const ROLL_DAYS = new Map<string, number>()

/** Roll days never change: each is worked out once (a few hundred a decade for every root). */
function rollDayOf(root: string, rule: RollRule, year: number, month: number): number {
  const key = `${root}:${year}:${month}`
  let day = ROLL_DAYS.get(key)
  if (day === undefined) {
    day = rule.rollDay(year, month)
    ROLL_DAYS.set(key, day)
  }
  return day
}

function explicitContract(root: string, rest: string, at: Date): DatedContract | null {
  const match = /^([FGHJKMNQUVXZ])(\d{1,4})$/.exec(rest)
  if (!match) return null
  const month = MONTH_CODES.indexOf(match[1] as string) + 1
  const digits = match[2] as string
  const year = fullYear(digits, at.getUTCFullYear())
  return year === null ? null : dated(root, month, year)
}

/** One digit: the year ending in it from two years back to seven ahead (a contract is listed at most that far). */
function fullYear(digits: string, currentYear: number): number | null {
  const value = Number(digits)
  if (digits.length === 4) return value
  if (digits.length === 2) return 2000 + value
  if (digits.length !== 1) return null
  const earliest = currentYear - 2
  return earliest + ((value - (earliest % 10) + 10) % 10)
}
