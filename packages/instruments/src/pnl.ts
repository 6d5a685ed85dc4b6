import { multiply, negate, parseDecimal, subtract, toFixed } from './decimal.ts'

export interface PnlInput {
  side: 'LONG' | 'SHORT'
  entryPrice: string | number
  exitPrice: string | number
  quantity: string | number
  pointValue: string | number
}

/** pnl = (exit - entry) x quantity x point value, negated for a short; exact, rounded to cents. */
export function computePnl(input: PnlInput): string {
  const move = subtract(parseDecimal(input.exitPrice), parseDecimal(input.entryPrice))
  const gross = multiply(multiply(move, parseDecimal(input.quantity)), parseDecimal(input.pointValue))
  return toFixed(input.side === 'SHORT' ? negate(gross) : gross, 2)
}
