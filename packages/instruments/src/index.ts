export { CONTRACTS, contractSpec, rootOf, type ContractSpec } from './contracts.ts'
export { computePnl, type PnlInput } from './pnl.ts'
export {
  parseDecimal,
  subtract,
  multiply,
  negate,
  toFixed,
  add,
  compare,
  minimum,
  maximum,
  absolute,
  floorDivide,
  percentOf,
  toPlain,
  type Decimal,
} from './decimal.ts'
export { frontMonthContract, type DatedContract } from './roll-calendar.ts'
export { tradingDayOf } from './trading-day.ts'
export { EXCHANGE_TIME_ZONE, exchangeMinuteOfDay, exchangeWallClock } from './exchange-clock.ts'
