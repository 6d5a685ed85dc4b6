/**
 * Exact decimal arithmetic for prices and money: values are decimal strings, computed as scaled BigInts.
 * Floats never touch a price (0.1 + 0.2 is not 0.3).
 */
export interface Decimal {
  units: bigint
  scale: number
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/

export function parseDecimal(value: string | number): Decimal {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim()
  const match = DECIMAL.exec(text)
  if (!match) throw new RangeError(`not a decimal number: ${JSON.stringify(value)}`)
  const [, sign, whole, fraction = ''] = match
  const units = BigInt(`${whole}${fraction}`) * (sign === '-' ? -1n : 1n)
  return { units, scale: fraction.length }
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`)
  // Shortest round-trip form, without exponent.
  const text = String(value)
  if (!/e/i.test(text)) return text
  return value.toFixed(20).replace(/\.?0+$/, '')
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale)
  return [a.units * 10n ** BigInt(scale - a.scale), b.units * 10n ** BigInt(scale - b.scale), scale]
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b)
  return { units: x - y, scale }
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale }
}

export function negate(a: Decimal): Decimal {
  return { units: -a.units, scale: a.scale }
}

/** Rounds half away from zero to `places` decimals and formats as a plain string (`-12.50`). */
export function toFixed(a: Decimal, places: number): string {
  let units = a.units
  if (a.scale > places) {
    const divisor = 10n ** BigInt(a.scale - places)
    const half = divisor / 2n
    const magnitude = units < 0n ? -units : units
    const rounded = (magnitude + half) / divisor
    units = units < 0n ? -rounded : rounded
  } else {
    units *= 10n ** BigInt(places - a.scale)
  }
  const negative = units < 0n
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0')
  const whole = digits.slice(0, digits.length - places)
  const fraction = places > 0 ? `.${digits.slice(digits.length - places)}` : ''
  return `${negative ? '-' : ''}${whole}${fraction}`
}
