import { add, compare, type Decimal, subtract } from '@signals/instruments'
import type { RiskEngineConfig } from './config.ts'
import { drawdownFloorOf } from './drawdown.ts'
import { decimal } from './money.ts'
import type { AccountState } from './sizing-types.ts'

/** The account's money figures every rule reads, computed once per decision. */
export interface AccountFigures {
  balance: Decimal
  openPnl: Decimal
  /** Balance plus open pnl: what a trailing floor is measured against in real time. */
  equity: Decimal
  floor: Decimal
  /** Equity above the floor (zero or less: the floor is reached). */
  room: Decimal
  /** Today's realized plus open pnl (the daily loss limit counts both). */
  todayPnl: Decimal
  /** What the daily loss limit leaves before today's loss reaches it; null when the limit is off. */
  dailyLeft: Decimal | null
  /** Realized profit over the starting balance. */
  realizedProfit: Decimal
  /** Equity over the starting balance less the profit target: what can be lost before dropping under it. */
  targetCushion: Decimal
}

export function accountFigures(config: RiskEngineConfig, account: AccountState): AccountFigures {
  const balance = decimal(account.balance)
  const openPnl = decimal(account.openPnl)
  const equity = add(balance, openPnl)
  const floor = drawdownFloorOf(config, account)
  const todayPnl = add(decimal(account.todayRealizedPnl), openPnl)
  const start = decimal(config.account.startingBalance)
  const dailyLeft = config.dailyLossLimit.enabled ? add(decimal(config.dailyLossLimit.amount), todayPnl) : null
  return {
    balance,
    openPnl,
    equity,
    floor,
    room: subtract(equity, floor),
    todayPnl,
    dailyLeft,
    realizedProfit: subtract(balance, start),
    targetCushion: subtract(subtract(equity, start), decimal(config.verification.profitTarget)),
  }
}

/** In evaluation with a profit target, whether the realized profit has reached it. */
export function profitTargetMet(config: RiskEngineConfig, figures: AccountFigures): boolean {
  const { phase, profitTarget } = config.verification
  return phase === 'evaluation' && profitTarget > 0 && compare(figures.realizedProfit, decimal(profitTarget)) >= 0
}
