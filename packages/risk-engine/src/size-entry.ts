import { compare, type Decimal, floorDivide, multiply } from '@signals/instruments'
import { accountFigures, type AccountFigures, profitTargetMet } from './account-figures.ts'
import { accountGate } from './account-gates.ts'
import { type EntryPrices, readEntryPrices } from './entry-prices.ts'
import { modeQuantity } from './mode-quantity.ts'
import { decimal, money, moneyText, plain } from './money.ts'
import { positionGate } from './position-gate.ts'
import { refuse, type Refusal } from './refusal.ts'
import { bindingLimit, type BudgetLimit, budgetLimits } from './risk-budget.ts'
import type { SizingDecision, SizingInput } from './sizing-types.ts'

/** After an evaluation's target is met, only the trading days are missing: one contract a trade is enough. */
const CONTRACTS_AFTER_TARGET = 1
const AFTER_TARGET_NOTE = 'The evaluation target is met: one contract a trade until the trading days are done.'

/**
 * The size of an entry, or why it is refused. Pure: everything it reads is in the input, and money is
 * exact decimals. Rules in order: account gates (daily loss, floor, verification, consistency, open
 * trades), the contract already held, the alert's prices, then the mode's size held to the risk limits.
 */
export function sizeEntry(input: SizingInput): SizingDecision {
  const { config, account, alert, contract } = input
  const figures = accountFigures(config, account)
  const gated = accountGate(config, account, figures) ?? positionGate(config, account, alert, contract)
  if (gated) return gated
  const prices = readEntryPrices(alert, contract)
  if ('kind' in prices) return prices
  const requested = modeQuantity(config, account, alert)
  if (requested.kind === 'refuse') return requested
  const targetMet = profitTargetMet(config, figures)
  if (prices.riskPerContract === null) {
    if (requested.kind === 'risk') return refuse('no_stop', `The alert has no stop, and the ${config.riskMode.mode} mode sizes from the loss at the stop.`)
    if (targetMet) return refuse('no_stop', 'The evaluation target is met, and until the trading days are done an entry needs a stop so that it cannot undo the pass.')
    return { kind: 'size', quantity: requested.quantity, budget: null, riskAtStop: null, note: requested.note }
  }
  const wanted = requested.kind === 'risk' ? null : requested.quantity
  const cap = targetMet ? CONTRACTS_AFTER_TARGET : null
  if (requested.kind === 'risk' || requested.heldByBudget) return sizeWithinBudget(input, figures, prices, wanted, cap, requested.kind === 'risk' ? null : requested.note)
  return checkFixedSize(figures, prices, requested.quantity, cap)
}

/** fixed_fraction and alert_quantity: the most contracts whose loss at the stop fits the budget. */
function sizeWithinBudget(input: SizingInput, figures: AccountFigures, prices: EntryPrices, wanted: number | null, cap: number | null, note: string | null): SizingDecision {
  const riskPerContract = prices.riskPerContract as Decimal
  const limit = bindingLimit(budgetLimits(input.config, figures, cap !== null))
  const affordable = Number(floorDivide(limit.amount, riskPerContract))
  if (affordable < 1) return tooSmall(limit, prices, input.contract.pointValue)
  const limits = [affordable, wanted ?? affordable, cap ?? affordable]
  const quantity = Math.min(...limits)
  return {
    kind: 'size',
    quantity,
    budget: moneyText(limit.amount),
    riskAtStop: moneyText(multiply(decimal(quantity), riskPerContract)),
    note: quantityNote(quantity, wanted, affordable, cap, note, limit),
  }
}

function quantityNote(quantity: number, wanted: number | null, affordable: number, cap: number | null, note: string | null, limit: BudgetLimit): string | null {
  if (wanted === null) return cap !== null && quantity === cap && affordable > cap ? AFTER_TARGET_NOTE : null
  if (quantity >= wanted) return note
  if (cap !== null && quantity === cap) return AFTER_TARGET_NOTE
  return `${wanted} contracts would risk more than the budget of ${limit.describe}; ${quantity} fit${quantity === 1 ? 's' : ''}.`
}

function tooSmall(limit: BudgetLimit, prices: EntryPrices, pointValue: string): Refusal {
  const perContract = `${money(prices.riskPerContract as Decimal)} at the stop (${plain(prices.stopPoints as Decimal)} points x ${money(decimal(pointValue))})`
  return refuse(limit.code, `One contract would lose ${perContract}, more than the budget of ${limit.describe}.`)
}

/** fixed_contracts and anti-martingale keep their size, but never a stop that breaches a limit. */
function checkFixedSize(figures: AccountFigures, prices: EntryPrices, wanted: number, cap: number | null): SizingDecision {
  const quantity = Math.min(wanted, cap ?? wanted)
  const targetMet = cap !== null
  const riskAtStop = multiply(decimal(quantity), prices.riskPerContract as Decimal)
  const loss = `${quantity} contract${quantity === 1 ? '' : 's'} would lose ${money(riskAtStop)} at the stop`
  if (compare(riskAtStop, figures.room) > 0) {
    return refuse('drawdown_floor', `${loss}, taking the ${money(figures.equity)} equity below the drawdown floor of ${money(figures.floor)}.`)
  }
  if (figures.dailyLeft !== null && compare(riskAtStop, figures.dailyLeft) > 0) {
    return refuse('daily_loss_at_stop', `${loss}, more than the ${money(figures.dailyLeft)} left of the daily loss limit.`)
  }
  if (targetMet && compare(riskAtStop, figures.targetCushion) > 0) {
    return refuse('profit_target_protection', `${loss}, more than the ${money(figures.targetCushion)} of profit above the evaluation's target.`)
  }
  return { kind: 'size', quantity, budget: null, riskAtStop: moneyText(riskAtStop), note: quantity < wanted ? AFTER_TARGET_NOTE : null }
}
