export { CONTRACTS, contractSpec, rootOf, type ContractSpec } from './contracts.ts'
export { computePnl, type PnlInput } from './pnl.ts'
export { parseDecimal, subtract, multiply, negate, toFixed, type Decimal } from './decimal.ts'
