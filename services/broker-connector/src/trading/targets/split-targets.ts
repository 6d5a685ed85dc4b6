import type { ExitTarget } from '@signals/contracts'

/** A target order as placed: its level (1 for TP1), its price as sent by the alert, its contracts. */
export interface SizedTarget {
  level: number
  price: string
  quantity: number
}

/**
 * The sized quantity shared among the targets (docs/decisions/targets-breakeven.md): the alert's
 * quantities when they add up to it, else in proportion to them (without quantities, equal shares), by
 * largest remainder with ties to the nearer target, so every contract is placed once and never more. A
 * target left with 0 contracts is merged into its neighbour (the next one out, the last into the one
 * before). The note says what changed from the alert, or null.
 */
export function splitTargets(targets: readonly ExitTarget[], total: number): { targets: SizedTarget[]; note: string | null } {
  const given = targets.every((target) => target.quantity !== null)
  const weights = targets.map((target) => (given ? (target.quantity as number) : 1))
  const weight = weights.reduce((sum, value) => sum + value, 0)
  const exact = weights.map((value) => (value * total) / weight)
  const shares = exact.map(Math.floor)
  const order = exact.map((value, index) => ({ index, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest || a.index - b.index)
  for (let left = total - shares.reduce((sum, value) => sum + value, 0), i = 0; left > 0; left--, i++) shares[order[i % order.length]!.index]! += 1
  const notes: string[] = []
  if (given && weight !== total) notes.push(`targets scaled from ${weight} to the ${total} contracts sized`)
  const placed: SizedTarget[] = []
  targets.forEach((target, index) => {
    if (shares[index]! > 0) placed.push({ level: index + 1, price: String(target.price), quantity: shares[index]! })
  })
  targets.forEach((_, index) => {
    if (shares[index]! > 0) return
    const into = placed.find((target) => target.level > index + 1) ?? placed.at(-1)
    if (into) notes.push(`TP${index + 1} rounded to 0 contracts and was merged into TP${into.level}`)
  })
  return { targets: placed, note: notes.length === 0 ? null : notes.join('; ') }
}
