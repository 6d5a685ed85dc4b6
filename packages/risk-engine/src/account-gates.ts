import { compare, maximum, negate, percentOf } from '@signals/instruments'
import { type AccountFigures, profitTargetMet } from './account-figures.ts'
import type { RiskEngineConfig } from './config.ts'
import { decimal, money, ZERO } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { AccountState } from './sizing-types.ts'

/**
 * Rules about the account as a whole, before the alert is looked at: the session halt and the daily
 * loss limit, the drawdown floor, the verification phase, the consistency rule and the open-trade count.
 */
export function accountGate(config: RiskEngineConfig, account: AccountState, figures: AccountFigures): Refusal | null {
  return dailyLossGate(config, account, figures) ?? floorGate(figures) ?? verificationGate(config, account, figures) ?? consistencyGate(config, figures) ?? openTradesGate(config, account)
}

function dailyLossGate(config: RiskEngineConfig, account: AccountState, figures: AccountFigures): Refusal | null {
  const { enabled, amount, type } = config.dailyLossLimit
  if (account.haltedForSession) {
    const why = account.haltReason ?? `the hard daily loss limit of ${money(decimal(amount))} was reached`
    return refuse('daily_loss_limit_hard', `Trading is halted for this session: ${why}; entries resume next session.`, true)
  }
  if (!enabled || figures.dailyLeft === null || compare(figures.dailyLeft, ZERO) > 0) return null
  const loss = money(negate(figures.todayPnl))
  if (type === 'hard') {
    return refuse('daily_loss_limit_hard', `Today's loss of ${loss} reached the hard daily loss limit of ${money(decimal(amount))}: every position is flattened and trading stops for the session.`, true)
  }
  return refuse('daily_loss_limit', `Today's loss of ${loss} reached the daily loss limit of ${money(decimal(amount))}: no new entries this session.`)
}

function floorGate(figures: AccountFigures): Refusal | null {
  if (compare(figures.room, ZERO) > 0) return null
  return refuse('drawdown_floor', `The account's equity of ${money(figures.equity)} is at or below the drawdown floor of ${money(figures.floor)}: no new entries.`)
}

/** An evaluation whose target is met and whose trading days are done is passed: trading on could only lose it. */
function verificationGate(config: RiskEngineConfig, account: AccountState, figures: AccountFigures): Refusal | null {
  const { profitTarget, minTradingDays } = config.verification
  if (!profitTargetMet(config, figures) || account.tradingDays < minTradingDays) return null
  return refuse(
    'evaluation_passed',
    `The evaluation is passed (profit ${money(figures.realizedProfit)} of a ${money(decimal(profitTarget))} target over ${account.tradingDays} of ${minTradingDays} trading days): no new entries until the phase is set to funded.`,
  )
}

/**
 * Once today's profit is at the consistency share, every further win today makes the best day a larger
 * share of the total, so entries stop for the session. The share is taken of the total profit, or of the
 * profit target while an evaluation is below it (otherwise the first winning day would always be 100 %).
 */
function consistencyGate(config: RiskEngineConfig, figures: AccountFigures): Refusal | null {
  const { enabled, maxBestDayPercent } = config.consistencyRule
  if (!enabled || compare(figures.todayPnl, ZERO) <= 0) return null
  const target = config.verification.phase === 'evaluation' ? decimal(config.verification.profitTarget) : ZERO
  const base = maximum(figures.realizedProfit, target)
  if (compare(base, ZERO) <= 0) return null
  const allowance = percentOf(base, decimal(maxBestDayPercent))
  if (compare(figures.todayPnl, allowance) < 0) return null
  return refuse(
    'consistency',
    `Today's profit of ${money(figures.todayPnl)} reached ${maxBestDayPercent}% of ${money(base)} (${money(allowance)}), the most one day may make under the consistency rule: no new entries this session.`,
  )
}

function openTradesGate(config: RiskEngineConfig, account: AccountState): Refusal | null {
  const { maxOpenTrades } = config.limits
  if (account.openTrades.length < maxOpenTrades) return null
  return refuse('max_open_trades', `${account.openTrades.length} trades are open and the limit is ${maxOpenTrades}: no new entry until one closes.`)
}
