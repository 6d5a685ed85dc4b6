import { businessDaysBefore, isBusinessDay, lastBusinessDayOfMonth } from './business-days.ts'
import { dayNumber, type DayNumber, nthWeekday, previousMonth } from './calendar-days.ts'

/**
 * Per contract family: the months it is traded in (the front-month cycle), the exchange's last trading
 * day, and the day we roll to the next contract (from that trading day on, `1!` means the next one).
 * Sources and reasoning per rule: docs/contract-rolls.md.
 */
export interface RollRule {
  /** Month codes of the cycle the continuous symbol walks (F = January ... Z = December). */
  cycle: string
  lastTradingDay(year: number, month: number): DayNumber
  rollDay(year: number, month: number): DayNumber
}

const FRIDAY = 5
const WEDNESDAY = 3
/** Energy rolls a business week before trading ends: volume has moved by then and no one is caught by expiry. */
const ENERGY_ROLL_BUSINESS_DAYS = 5
/** Deliverable contracts roll before the first position day (2 business days before first notice). */
const DELIVERABLE_ROLL_BUSINESS_DAYS = 3

/** CME equity index: expiry the 3rd Friday; the floor convention rolls 8 calendar days before (a Thursday). */
const equityIndex: RollRule = {
  cycle: 'HMUZ',
  lastTradingDay: (year, month) => nthWeekday(year, month, FRIDAY, 3),
  rollDay: (year, month) => nthWeekday(year, month, FRIDAY, 3) - 8,
}

/** CL: 3 business days before the 25th of the month before delivery (4 when the 25th is no business day). */
function crudeLastTradingDay(year: number, month: number): DayNumber {
  const [y, m] = previousMonth(year, month)
  const twentyFifth = dayNumber(y, m, 25)
  return businessDaysBefore(twentyFifth, isBusinessDay(twentyFifth) ? 3 : 4)
}

const crude: RollRule = {
  cycle: 'FGHJKMNQUVXZ',
  lastTradingDay: crudeLastTradingDay,
  rollDay: (year, month) => businessDaysBefore(crudeLastTradingDay(year, month), ENERGY_ROLL_BUSINESS_DAYS),
}

/** MCL expires one business day before the CL contract of the same month. */
const microCrude: RollRule = {
  cycle: crude.cycle,
  lastTradingDay: (year, month) => businessDaysBefore(crudeLastTradingDay(year, month), 1),
  rollDay: crude.rollDay,
}

/** NG: trading ends 3 business days before the first calendar day of the delivery month. */
function naturalGasLastTradingDay(year: number, month: number): DayNumber {
  return businessDaysBefore(dayNumber(year, month, 1), 3)
}

const naturalGas: RollRule = {
  cycle: 'FGHJKMNQUVXZ',
  lastTradingDay: naturalGasLastTradingDay,
  rollDay: (year, month) => businessDaysBefore(naturalGasLastTradingDay(year, month), ENERGY_ROLL_BUSINESS_DAYS),
}

/** First notice day of metals and Treasuries: the last business day of the month before delivery. */
function firstNoticeDay(year: number, month: number): DayNumber {
  const [y, m] = previousMonth(year, month)
  return lastBusinessDayOfMonth(y, m)
}

const deliverableRoll = (year: number, month: number): DayNumber => businessDaysBefore(firstNoticeDay(year, month), DELIVERABLE_ROLL_BUSINESS_DAYS)

/** COMEX metals: trading ends the 3rd last business day of the delivery month; traders leave before first notice. */
const metal = (cycle: string): RollRule => ({
  cycle,
  lastTradingDay: (year, month) => businessDaysBefore(lastBusinessDayOfMonth(year, month), 2),
  rollDay: deliverableRoll,
})

/** Treasuries: trading ends 7 business days before the last business day of the delivery month. */
const treasury: RollRule = {
  cycle: 'HMUZ',
  lastTradingDay: (year, month) => businessDaysBefore(lastBusinessDayOfMonth(year, month), 7),
  rollDay: deliverableRoll,
}

/** 6E: trading ends 2 business days before the 3rd Wednesday of the contract month; roll a business week before. */
function euroLastTradingDay(year: number, month: number): DayNumber {
  return businessDaysBefore(nthWeekday(year, month, WEDNESDAY, 3), 2)
}

const euroFx: RollRule = {
  cycle: 'HMUZ',
  lastTradingDay: euroLastTradingDay,
  rollDay: (year, month) => businessDaysBefore(euroLastTradingDay(year, month), 5),
}

export const ROLL_RULES: Readonly<Record<string, RollRule>> = {
  ES: equityIndex,
  MES: equityIndex,
  NQ: equityIndex,
  MNQ: equityIndex,
  YM: equityIndex,
  MYM: equityIndex,
  RTY: equityIndex,
  M2K: equityIndex,
  CL: crude,
  MCL: microCrude,
  NG: naturalGas,
  GC: metal('GJMQVZ'),
  MGC: metal('GJMQVZ'),
  SI: metal('HKNUZ'),
  '6E': euroFx,
  ZB: treasury,
  ZN: treasury,
}
