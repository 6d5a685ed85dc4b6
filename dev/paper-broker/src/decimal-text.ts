import { negate, parseDecimal, subtract, toFixed, type Decimal } from '@signals/instruments'

/** Sign of a - b for exact decimal text. */
export function compareDecimal(a: string, b: string): number {
  const difference = subtract(parseDecimal(a), parseDecimal(b))
  return difference.units > 0n ? 1 : difference.units < 0n ? -1 : 0
}

/** True when `price` is a whole number of ticks. */
export function onTick(price: string, tick: string): boolean {
  const p = parseDecimal(price)
  const t = parseDecimal(tick)
  const scale = Math.max(p.scale, t.scale)
  const units = (d: Decimal) => d.units * 10n ** BigInt(scale - d.scale)
  return units(t) !== 0n && units(p) % units(t) === 0n
}

/** Plain decimal text without trailing zeros (`21000.50` -> `21000.5`). */
export function normalizeDecimal(value: string | number): string {
  const decimal = parseDecimal(value)
  const text = toFixed(decimal, decimal.scale)
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
}

/** Decimal text of a JSON number as the wire carries prices; null when it is not a finite number. */
export function priceText(value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null
  return normalizeDecimal(value)
}
/** a + b for exact decimal text, at the larger of the two scales. */
export function add(a: string, b: string): string {
  const left = parseDecimal(a)
  const right = parseDecimal(b)
  return toFixed(subtract(left, negate(right)), Math.max(left.scale, right.scale))
}
