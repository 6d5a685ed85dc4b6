import { compare, floorDivide, multiply } from '@signals/instruments'
import { accountFigures, type AccountFigures, profitTargetMet } from './account-figures.ts'
import { accountGate } from './account-gates.ts'
import { readEntryPrices, type StopRisk } from './entry-prices.ts'
import { fillOf } from './fill-price.ts'
import { modeQuantity } from './mode-quantity.ts'
import { decimal, money, moneyText, plain } from './money.ts'
import { marginMost, marginNote, marginRefusal, orderBounds, type OrderBounds } from './order-bounds.ts'
import { positionGate } from './position-gate.ts'
import { refuse, type Refusal } from './refusal.ts'
import { bindingLimit, type BudgetLimit, budgetLimits } from './risk-budget.ts'
import type { SizingDecision, SizingInput } from './sizing-types.ts'

/** What the mode asked for, before the risk limits and the order's bounds. */
interface Request {
  /** Contracts the mode asks for; null when the budget alone decides (fixed_fraction). */
  wanted: number | null
  /** Why `wanted` is already below what the alert asked (alert_quantity's cap). */
  note: string | null
}

/**
 * The size of an entry, or why it is refused. Pure: everything it reads is in the input, and money is
 * exact decimals. Rules in order: account gates (daily loss, floor, verification, consistency, open
 * trades), the contract already held, the alert's prices, the market (the fill price and the stop's
 * distance from it), the mode's size held to the risk limits, then the order's bounds (contract caps and
 * margin).
 */
export function sizeEntry(input: SizingInput): SizingDecision {
  const { config, account, alert, contract } = input
  const figures = accountFigures(config, account)
  const gated = accountGate(config, account, figures) ?? positionGate(config, account, alert, contract)
  if (gated) return gated
  const prices = readEntryPrices(alert)
  if ('kind' in prices) return prices
  const fill = fillOf(input, prices)
  if ('kind' in fill) return fill
  const requested = modeQuantity(config, account, alert)
  if (requested.kind === 'refuse') return requested
  const targetMet = profitTargetMet(config, figures)
  const bounds = orderBounds(input, figures, fill.price, targetMet)
  if (fill.stop === null) {
    if (requested.kind === 'risk') return refuse('no_stop', `The alert has no stop, and the ${config.riskMode.mode} mode sizes from the loss at the stop.`)
    if (targetMet) return refuse('no_stop', 'The evaluation target is met, and until the trading days are done an entry needs a stop so that it cannot undo the pass.')
    const quantity = Math.min(requested.quantity, bounds.cap.limit)
    return marginRefusal(bounds.margin, quantity, figures.equity) ?? { kind: 'size', quantity, budget: null, riskAtStop: null, note: cutNote(requested.quantity, quantity, requested.note, bounds) }
  }
  if (requested.kind === 'risk') return sizeWithinBudget(input, figures, fill.stop, { wanted: null, note: null }, bounds)
  const request = { wanted: requested.quantity, note: requested.note }
  return requested.heldByBudget ? sizeWithinBudget(input, figures, fill.stop, request, bounds) : checkFixedSize(figures, fill.stop, request, bounds)
}

/** A size kept as the mode asked, or cut by a cap: the mode's note, or the cap's. */
function cutNote(asked: number, quantity: number, modeNote: string | null, bounds: OrderBounds): string | null {
  return quantity < asked ? bounds.cap.note(asked) : modeNote
}

/** fixed_fraction and alert_quantity: the most contracts whose loss at the stop fits the budget, the caps and the margin. */
function sizeWithinBudget(input: SizingInput, figures: AccountFigures, stop: StopRisk, request: Request, bounds: OrderBounds): SizingDecision {
  const limit = bindingLimit(budgetLimits(input.config, figures, bounds.targetMet))
  const affordable = Number(floorDivide(limit.amount, stop.riskPerContract))
  if (affordable < 1) return tooSmall(limit, stop, input.contract.pointValue)
  const byMargin = marginMost(bounds.margin)
  if (byMargin < 1) return marginRefusal(bounds.margin, 1, figures.equity) as Refusal
  const asked = request.wanted ?? affordable
  const quantity = Math.min(asked, affordable, bounds.cap.limit, byMargin)
  return {
    kind: 'size',
    quantity,
    budget: moneyText(limit.amount),
    riskAtStop: moneyText(multiply(decimal(quantity), stop.riskPerContract)),
    note: budgetNote({ asked, quantity, affordable, byMargin }, request, limit, bounds),
  }
}

/** The note naming what cut the size (the budget, a cap or the margin), or the mode's own note. */
function budgetNote(sizes: { asked: number; quantity: number; affordable: number; byMargin: number }, request: Request, limit: BudgetLimit, bounds: OrderBounds): string | null {
  const { asked, quantity, affordable, byMargin } = sizes
  if (quantity >= asked) return request.note
  if (quantity === affordable) return `${asked} contracts would risk more than the budget of ${limit.describe}; ${quantity} fit${quantity === 1 ? 's' : ''}.`
  if (quantity === bounds.cap.limit) return bounds.cap.note(asked)
  return quantity === byMargin ? marginNote(asked, quantity, bounds.margin) : request.note
}

function tooSmall(limit: BudgetLimit, stop: StopRisk, pointValue: string): Refusal {
  const perContract = `${money(stop.riskPerContract)} at the stop (${plain(stop.points)} points x ${money(decimal(pointValue))})`
  return refuse(limit.code, `One contract would lose ${perContract}, more than the budget of ${limit.describe}.`)
}

/**
 * fixed_contracts and anti-martingale keep their size (cut only by a contract cap), but never a stop that
 * breaches a limit nor more margin than there is room for.
 */
function checkFixedSize(figures: AccountFigures, stop: StopRisk, request: Request & { wanted: number }, bounds: OrderBounds): SizingDecision {
  const quantity = Math.min(request.wanted, bounds.cap.limit)
  const riskAtStop = multiply(decimal(quantity), stop.riskPerContract)
  const loss = `${quantity} contract${quantity === 1 ? '' : 's'} would lose ${money(riskAtStop)} at the stop`
  if (compare(riskAtStop, figures.room) > 0) {
    return refuse('drawdown_floor', `${loss}, taking the ${money(figures.equity)} equity below the drawdown floor of ${money(figures.floor)}.`)
  }
  if (figures.dailyLeft !== null && compare(riskAtStop, figures.dailyLeft) > 0) {
    return refuse('daily_loss_at_stop', `${loss}, more than the ${money(figures.dailyLeft)} left of the daily loss limit.`)
  }
  if (bounds.targetMet && compare(riskAtStop, figures.targetCushion) > 0) {
    return refuse('profit_target_protection', `${loss}, more than the ${money(figures.targetCushion)} of profit above the evaluation's target.`)
  }
  return marginRefusal(bounds.margin, quantity, figures.equity) ?? { kind: 'size', quantity, budget: null, riskAtStop: moneyText(riskAtStop), note: cutNote(request.wanted, quantity, null, bounds) }
}
