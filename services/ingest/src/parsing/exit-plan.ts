import type { ExitPlan, ExitTarget, Side } from '@signals/contracts'
import { Refusal } from '../refusal.ts'
import { canonicalName, type FieldName, type Fields } from './fields.ts'
import { isPlainObject } from './json.ts'
import { booleanValue, priceValue, textValue } from './values.ts'

/** What the targets are checked against: the entry's side, its price when sent, and the quantity asked. */
export interface ExitPlanContext {
  side: Side | null
  entryPrice: number | null
  quantity: number | null
}

const invalid = (message: string) => new Refusal(400, 'invalid', message)

const LEVELS = [
  { price: 'tp1', quantity: 'tp1Quantity', name: 'tp1' },
  { price: 'tp2', quantity: 'tp2Quantity', name: 'tp2' },
  { price: 'tp3', quantity: 'tp3Quantity', name: 'tp3' },
] as const satisfies readonly { price: FieldName; quantity: FieldName; name: string }[]

/** Keys of a PickMyTrade `advance_tp_sl` item, after canonicalName: the target's price and its contracts. */
const ITEM_PRICE = new Set(['tp', 'takeprofit', 'price'])
const ITEM_QUANTITY = new Set(['quantity', 'qty', 'contracts'])

/**
 * Several targets (TP1/TP2/TP3, ours; PickMyTrade `advance_tp_sl`) and the move to breakeven after TP1, or
 * null when the entry asks for neither (its single `tp` stays the bracket's target). Refused (400) rather
 * than guessed: a lone TP1, a gap, targets out of order or on the wrong side of the entry, some quantities
 * without the others, quantities that do not add up to the quantity asked, `tp` beside them, breakeven
 * without several targets, PickMyTrade's `breakeven` distance (another meaning than "after TP1").
 */
export function exitPlanOf(fields: Fields, context: ExitPlanContext): ExitPlan | null {
  if (nonZero(fields.breakevenTrigger)) {
    throw invalid("PickMyTrade's breakeven (a profit distance that moves the stop) is not supported: send tp1 and tp2 with breakeven_offset_ticks (the stop moves to the entry price plus that many ticks once TP1 has filled)")
  }
  if (nonZero(fields.tpBeyond)) throw invalid('at most three targets: send tp1, tp2 and tp3')
  const ours = ourTargets(fields)
  const advance = advanceTargets(fields.advanceTargets)
  if (ours.length > 0 && advance.length > 0) throw invalid('send advance_tp_sl and tp1/tp2/tp3 not both: they are two ways to give the same targets')
  const targets = ours.length > 0 ? ours : advance
  const breakeven = breakevenOf(fields)
  if (targets.length === 0) {
    if (breakeven !== null) throw invalid('breakeven after TP1 needs several targets: send tp1 and tp2 (and tp3)')
    return null
  }
  if (targets.length === 1) throw invalid('TP1 alone is one target: send tp for a single target, or tp1 and tp2 (and tp3)')
  if (priceValue(fields.tp) !== null && (priceValue(fields.tp) as number) > 0) throw invalid('send tp and tp1/tp2/tp3 not both: with several targets the last one is the farthest')
  checkOrder(targets, context)
  checkQuantities(targets, context.quantity)
  return { targets, breakeven }
}

function ourTargets(fields: Fields): ExitTarget[] {
  const targets: ExitTarget[] = []
  let gap: string | null = null
  for (const level of LEVELS) {
    const price = positivePrice(fields[level.price], level.name)
    if (price === null) {
      if (fields[level.quantity] !== undefined && nonZero(fields[level.quantity])) throw invalid(`${level.name}_qty without ${level.name}: send the target's price`)
      gap ??= level.name
      continue
    }
    if (gap !== null) throw invalid(`${level.name} without ${gap}: send the targets in order, nearest first`)
    targets.push({ price, quantity: contracts(fields[level.quantity], `${level.name}_qty`) })
  }
  return targets
}

/** PickMyTrade `advance_tp_sl`: a list of `{tp, quantity}`; one stop covers the whole position, so an item's own stop is refused. */
function advanceTargets(value: unknown): ExitTarget[] {
  if (value === undefined || value === null || value === '') return []
  if (!Array.isArray(value)) throw invalid('advance_tp_sl must be a list of targets, each {"tp": price, "quantity": contracts}')
  return value.flatMap((item: unknown, index): ExitTarget[] => {
    const name = `advance_tp_sl[${index}]`
    if (!isPlainObject(item)) throw invalid(`${name} must be an object {"tp": price, "quantity": contracts}`)
    let price: number | null = null
    let quantity: number | null = null
    for (const [key, field] of Object.entries(item)) {
      const canonical = canonicalName(key)
      if (ITEM_PRICE.has(canonical)) price = positivePrice(field, `${name}.${key}`)
      else if (ITEM_QUANTITY.has(canonical)) quantity = contracts(field, `${name}.${key}`)
      else if (canonical === 'sl' || canonical === 'stoploss') {
        if (nonZero(field)) throw invalid(`${name}.${key}: a stop per target is not supported; one stop covers the whole position (send sl at the top level)`)
      } else if (nonZero(field)) throw invalid(`${name}.${key} is not supported: send each target's tp as a price and its quantity`)
    }
    return price === null ? [] : [{ price, quantity }]
  })
}

function breakevenOf(fields: Fields): ExitPlan['breakeven'] {
  const offset = fields.breakevenOffset
  if (offset !== undefined && offset !== null && offset !== '') {
    const ticks = priceValue(offset)
    if (ticks === null || !Number.isInteger(ticks) || ticks < 0 || ticks > 1000) throw invalid('breakeven_offset_ticks must be whole ticks from 0 to 1000')
    return { offsetTicks: ticks }
  }
  return booleanValue(fields.breakevenAfterTp1) ? { offsetTicks: 0 } : null
}

/** Each target beyond the entry on the profit side, and each further out than the one before. */
function checkOrder(targets: readonly ExitTarget[], context: ExitPlanContext): void {
  if (context.side === null) return
  const up = context.side === 'LONG'
  const beyond = (a: number, b: number) => (up ? a > b : a < b)
  if (context.entryPrice !== null && !beyond(targets[0]!.price, context.entryPrice)) {
    throw invalid(`TP1 (${targets[0]!.price}) is not ${up ? 'above' : 'below'} the ${context.side} entry price ${context.entryPrice}`)
  }
  for (let i = 1; i < targets.length; i++) {
    if (!beyond(targets[i]!.price, targets[i - 1]!.price)) throw invalid(`TP${i + 1} (${targets[i]!.price}) must be further from the entry than TP${i} (${targets[i - 1]!.price})`)
  }
}

function checkQuantities(targets: readonly ExitTarget[], asked: number | null): void {
  const given = targets.filter((target) => target.quantity !== null).length
  if (given === 0) return
  if (given !== targets.length) throw invalid('every target needs a quantity, or none does (then each takes an equal share)')
  const sum = targets.reduce((total, target) => total + (target.quantity as number), 0)
  if (asked !== null && sum !== asked) throw invalid(`the targets' quantities (tp1_qty, tp2_qty, tp3_qty) add up to ${sum}, and the quantity is ${asked}: they must be equal`)
}

function positivePrice(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const price = priceValue(value)
  if (price === null || price < 0) throw invalid(`${name} must be a price`)
  return price === 0 ? null : price
}

function contracts(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null
  const quantity = priceValue(value)
  if (quantity === 0) return null
  if (quantity === null || !Number.isInteger(quantity) || quantity < 0) throw invalid(`${name} must be a whole number of contracts`)
  return quantity
}

function nonZero(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === false) return false
  const number = priceValue(value)
  return number === null ? textValue(value) !== null && !['false', 'no', 'off'].includes(String(textValue(value)).toLowerCase()) : number !== 0
}
