import { compare, type Decimal, percentOf, subtract } from '@signals/instruments'
import type { AccountFigures } from './account-figures.ts'
import type { RiskEngineConfig } from './config.ts'
import { decimal, money } from './money.ts'
import type { RefusalCode } from './sizing-types.ts'

/** One of the amounts a trade's loss at its stop is held to; the smallest one is the budget. */
export interface BudgetLimit {
  amount: Decimal
  /** The refusal when even one contract would lose more than this amount. */
  code: RefusalCode
  /** The amount in words for a sentence: `$500.00 (1% of the $50,000.00 balance)`. */
  describe: string
}

const HUNDRED = decimal(100)

/**
 * fixed_fraction's budget: the per-trade share of the balance, the room above the drawdown floor less the
 * safety buffer, what is left of the daily loss limit, and after an evaluation's target is met the profit
 * above the target (a stop-out must not undo the pass).
 */
export function budgetLimits(config: RiskEngineConfig, figures: AccountFigures, targetMet: boolean): BudgetLimit[] {
  const { maxRiskPerTradePercent, safetyBufferPercent } = config.limits
  const perTrade = percentOf(figures.balance, decimal(maxRiskPerTradePercent))
  const roomLessBuffer = percentOf(figures.room, subtract(HUNDRED, decimal(safetyBufferPercent)))
  const limits: BudgetLimit[] = [
    { amount: perTrade, code: 'size_below_one', describe: `${money(perTrade)} (${maxRiskPerTradePercent}% of the ${money(figures.balance)} balance)` },
    {
      amount: roomLessBuffer,
      code: 'drawdown_floor',
      describe: `${money(roomLessBuffer)} (the ${money(figures.room)} above the ${money(figures.floor)} drawdown floor less the ${safetyBufferPercent}% safety buffer)`,
    },
  ]
  if (figures.dailyLeft !== null) {
    limits.push({ amount: figures.dailyLeft, code: 'daily_loss_at_stop', describe: `${money(figures.dailyLeft)} (what is left of the ${money(decimal(config.dailyLossLimit.amount))} daily loss limit)` })
  }
  if (targetMet) {
    limits.push({ amount: figures.targetCushion, code: 'profit_target_protection', describe: `${money(figures.targetCushion)} (the profit above the evaluation's target)` })
  }
  return limits
}

export function bindingLimit(limits: readonly BudgetLimit[]): BudgetLimit {
  return limits.reduce((low, next) => (compare(next.amount, low.amount) < 0 ? next : low))
}
