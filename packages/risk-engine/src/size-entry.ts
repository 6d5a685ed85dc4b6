import { compare, floorDivide, multiply } from '@signals/instruments'
import { accountFigures, type AccountFigures, profitTargetMet } from './account-figures.ts'
import { accountGate } from './account-gates.ts'
import { readEntryPrices, type StopRisk } from './entry-prices.ts'
import { modeQuantity } from './mode-quantity.ts'
import { decimal, money, moneyText, plain } from './money.ts'
import { positionGate } from './position-gate.ts'
import { refuse, type Refusal } from './refusal.ts'
import { bindingLimit, type BudgetLimit, budgetLimits } from './risk-budget.ts'
import type { SizingDecision, SizingInput } from './sizing-types.ts'

/** After an evaluation's target is met, only the trading days are missing: one contract a trade is enough. */
const CONTRACTS_AFTER_TARGET = 1
const AFTER_TARGET_NOTE = 'The evaluation target is met: one contract a trade until the trading days are done.'

/** What the mode asked for, before the risk limits. */
interface Request {
  /** Contracts the mode asks for; null when the budget alone decides (fixed_fraction). */
  wanted: number | null
  /** Why `wanted` is already below what the alert asked (alert_quantity's cap). */
  note: string | null
  /** At most this many contracts (after an evaluation's target); null for no cap. */
  cap: number | null
}

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
  if (prices.stop === null) {
    if (requested.kind === 'risk') return refuse('no_stop', `The alert has no stop, and the ${config.riskMode.mode} mode sizes from the loss at the stop.`)
    if (targetMet) return refuse('no_stop', 'The evaluation target is met, and until the trading days are done an entry needs a stop so that it cannot undo the pass.')
    return { kind: 'size', quantity: requested.quantity, budget: null, riskAtStop: null, note: requested.note }
  }
  const cap = targetMet ? CONTRACTS_AFTER_TARGET : null
  if (requested.kind === 'risk') return sizeWithinBudget(input, figures, prices.stop, { wanted: null, note: null, cap })
  const request = { wanted: requested.quantity, note: requested.note, cap }
  return requested.heldByBudget ? sizeWithinBudget(input, figures, prices.stop, request) : checkFixedSize(figures, prices.stop, request)
}

/** fixed_fraction and alert_quantity: the most contracts whose loss at the stop fits the budget. */
function sizeWithinBudget(input: SizingInput, figures: AccountFigures, stop: StopRisk, request: Request): SizingDecision {
  const limit = bindingLimit(budgetLimits(input.config, figures, request.cap !== null))
  const affordable = Number(floorDivide(limit.amount, stop.riskPerContract))
  if (affordable < 1) return tooSmall(limit, stop, input.contract.pointValue)
  const quantity = Math.min(affordable, request.wanted ?? affordable, request.cap ?? affordable)
  return {
    kind: 'size',
    quantity,
    budget: moneyText(limit.amount),
    riskAtStop: moneyText(multiply(decimal(quantity), stop.riskPerContract)),
    note: budgetNote(quantity, affordable, request, limit),
  }
}

function budgetNote(quantity: number, affordable: number, request: Request, limit: BudgetLimit): string | null {
  const asked = request.wanted ?? affordable
  if (quantity >= asked) return request.note
  if (quantity === request.cap) return AFTER_TARGET_NOTE
  return `${asked} contracts would risk more than the budget of ${limit.describe}; ${quantity} fit${quantity === 1 ? 's' : ''}.`
}

function tooSmall(limit: BudgetLimit, stop: StopRisk, pointValue: string): Refusal {
  const perContract = `${money(stop.riskPerContract)} at the stop (${plain(stop.points)} points x ${money(decimal(pointValue))})`
  return refuse(limit.code, `One contract would lose ${perContract}, more than the budget of ${limit.describe}.`)
}

/** fixed_contracts and anti-martingale keep their size, but never a stop that breaches a limit. */
function checkFixedSize(figures: AccountFigures, stop: StopRisk, request: Request & { wanted: number }): SizingDecision {
  const quantity = Math.min(request.wanted, request.cap ?? request.wanted)
  const riskAtStop = multiply(decimal(quantity), stop.riskPerContract)
  const loss = `${quantity} contract${quantity === 1 ? '' : 's'} would lose ${money(riskAtStop)} at the stop`
  if (compare(riskAtStop, figures.room) > 0) {
    return refuse('drawdown_floor', `${loss}, taking the ${money(figures.equity)} equity below the drawdown floor of ${money(figures.floor)}.`)
  }
  if (figures.dailyLeft !== null && compare(riskAtStop, figures.dailyLeft) > 0) {
    return refuse('daily_loss_at_stop', `${loss}, more than the ${money(figures.dailyLeft)} left of the daily loss limit.`)
  }
  if (request.cap !== null && compare(riskAtStop, figures.targetCushion) > 0) {
    return refuse('profit_target_protection', `${loss}, more than the ${money(figures.targetCushion)} of profit above the evaluation's target.`)
  }
  return { kind: 'size', quantity, budget: null, riskAtStop: moneyText(riskAtStop), note: quantity < request.wanted ? AFTER_TARGET_NOTE : null }
}
