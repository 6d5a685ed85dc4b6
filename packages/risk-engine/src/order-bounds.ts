import { absolute, add, compare, contractSpec, type Decimal, floorDivide, multiply, percentOf, subtract } from '@signals/instruments'
import type { AccountFigures } from './account-figures.ts'
import { decimal, money, plain, ZERO } from './money.ts'
import { refuse, type Refusal } from './refusal.ts'
import type { SizingInput } from './sizing-types.ts'

/** After an evaluation's target is met, only the trading days are missing: one contract a trade is enough. */
const AFTER_TARGET_NOTE = 'The evaluation target is met: one contract a trade until the trading days are done.'

/** The most contracts one order may have, and the sentence saying so when it cuts a size. */
interface ContractCap {
  limit: number
  /** The note for a size cut to `limit` from `asked`. */
  note(asked: number): string
}

/** What the entry's margin is held to: each contract's margin and what the equity leaves after the open trades'. */
export interface MarginRoom {
  perContract: Decimal
  /** Equity less the margin of the open trades (zero or less: no room). */
  available: Decimal
  /** The rule in words: `2% of 21000 x $2.00`. */
  rule: string
  /** The open trades' margin. */
  inUse: Decimal
}

export interface OrderBounds {
  cap: ContractCap
  margin: MarginRoom
  /** An evaluation's target is met: one contract, and the profit above the target bounds the loss at the stop. */
  targetMet: boolean
}

/**
 * Every cap on one order's contracts: the account's `limits.maxContractsPerOrder`, the platform's ceiling,
 * the risk strategy's "Maximum contracts" when set, and one contract once an evaluation's target is met.
 * The smallest holds.
 */
function contractCap(input: SizingInput, targetMet: boolean): ContractCap {
  const { config, caps } = input
  const cut = (limit: number, what: string): ContractCap => ({
    limit,
    note: (asked) => `The ${config.riskMode.mode} size of ${asked} contracts is cut to ${limit}, ${what}.`,
  })
  const candidates: ContractCap[] = [
    cut(config.limits.maxContractsPerOrder, "the account's limit per order (limits.maxContractsPerOrder)"),
    cut(caps.platformMaxContracts, "the platform's ceiling per order"),
  ]
  if (caps.maxContracts !== null) candidates.push(cut(caps.maxContracts, "the risk strategy's maximum contracts"))
  if (targetMet) candidates.push({ limit: 1, note: () => AFTER_TARGET_NOTE })
  return candidates.reduce((low, next) => (next.limit < low.limit ? next : low))
}

/** Margin of `quantity` contracts at `price` under the configured percentage of their value (a price below zero counts by its size). */
function marginAt(percent: Decimal, price: Decimal, pointValue: string, quantity: Decimal): Decimal {
  return percentOf(multiply(multiply(absolute(price), decimal(pointValue)), absolute(quantity)), percent)
}

/**
 * The margin rule: a contract needs `limits.marginPercent` of its value (price x point value); the open
 * trades, at their entry prices, and the new order together may not need more than the equity. A trade in
 * a contract outside the table (none the entry flow places) counts no margin.
 */
function marginRoom(input: SizingInput, figures: AccountFigures, fill: Decimal): MarginRoom {
  const percent = decimal(input.config.limits.marginPercent)
  const inUse = input.account.openTrades.reduce<Decimal>((sum, trade) => {
    const pointValue = contractSpec(trade.root)?.pointValue
    if (pointValue === undefined) return sum
    return add(sum, marginAt(percent, decimal(trade.entryPrice), pointValue, decimal(trade.quantity)))
  }, ZERO)
  return {
    perContract: marginAt(percent, fill, input.contract.pointValue, decimal(1)),
    available: subtract(figures.equity, inUse),
    rule: `${input.config.limits.marginPercent}% of ${plain(fill)} x ${money(decimal(input.contract.pointValue))}`,
    inUse,
  }
}

export function orderBounds(input: SizingInput, figures: AccountFigures, fill: Decimal, targetMet: boolean): OrderBounds {
  return { cap: contractCap(input, targetMet), margin: marginRoom(input, figures, fill), targetMet }
}

/** The most contracts the margin room takes (zero when there is no room; unbounded at a price of zero). */
export function marginMost(margin: MarginRoom): number {
  if (compare(margin.available, ZERO) <= 0) return 0
  if (compare(margin.perContract, ZERO) <= 0) return Number.MAX_SAFE_INTEGER
  return Number(floorDivide(margin.available, margin.perContract))
}

/** A refusal when `quantity` contracts need more margin than there is room for; null when they fit. */
export function marginRefusal(margin: MarginRoom, quantity: number, equity: Decimal): Refusal | null {
  const needed = multiply(margin.perContract, decimal(quantity))
  if (compare(needed, margin.available) <= 0) return null
  const what = `${quantity === 1 ? 'One contract needs' : `${quantity} contracts need`} ${money(needed)} of margin (${margin.rule} each)`
  if (compare(margin.available, ZERO) <= 0) {
    return refuse('insufficient_margin', `${what}, and the open trades' ${money(margin.inUse)} of margin already take the whole ${money(equity)} equity.`)
  }
  const after = compare(margin.inUse, ZERO) > 0 ? ` leaves after the open trades' ${money(margin.inUse)}` : ' holds'
  return refuse('insufficient_margin', `${what}, more than the ${money(margin.available)} the ${money(equity)} equity${after}.`)
}

/** The note for a size the margin room cut. */
export function marginNote(asked: number, quantity: number, margin: MarginRoom): string {
  return `${asked} contracts would need more margin than the ${money(margin.available)} there is room for (${margin.rule} a contract); ${quantity} fit${quantity === 1 ? 's' : ''}.`
}
