import { contractSpec, rootOf } from '@signals/instruments'
import type { Logger } from '../../shared/logger.ts'

/**
 * Money per point for a trade: its contract's point value. A symbol outside the contract table (an
 * equity, a coin) is priced as one unit of currency per point per unit of quantity, and said so in the log.
 */
export function pointValueOf(trade: { symbol: string; root: string | null }, logger: Logger): string {
  const root = trade.root ?? rootOf(trade.symbol)
  const spec = root === null ? undefined : contractSpec(root)
  if (spec) return spec.pointValue
  logger.warn({ symbol: trade.symbol }, 'no contract specification for this symbol; pnl uses a point value of 1')
  return '1'
}
