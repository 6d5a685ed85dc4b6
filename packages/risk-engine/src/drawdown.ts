import { type Decimal, minimum, subtract } from '@signals/instruments'
import type { RiskEngineConfig } from './config.ts'
import { decimal, moneyText } from './money.ts'
import type { AccountState } from './sizing-types.ts'

/**
 * The balance the account must stay above: the peak (in the configured trailing mode) less the trailing
 * amount, and once it reaches `stopTrailingAtBalance` it stays there.
 */
export function drawdownFloorOf(config: RiskEngineConfig, account: Pick<AccountState, 'peakBalance'>): Decimal {
  const { amount, stopTrailingAtBalance } = config.trailingDrawdown
  const trailing = subtract(decimal(account.peakBalance), decimal(amount))
  return stopTrailingAtBalance === null ? trailing : minimum(trailing, decimal(stopTrailingAtBalance))
}

/** The drawdown floor as exact money text (`48000.00`), for the status page and the entry flow. */
export function drawdownFloor(config: RiskEngineConfig, account: Pick<AccountState, 'peakBalance'>): string {
  return moneyText(drawdownFloorOf(config, account))
}
