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

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b)
  return { units: x + y, scale }
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const [x, y] = align(a, b)
  return x < y ? -1 : x > y ? 1 : 0
}

export function minimum(first: Decimal, ...rest: Decimal[]): Decimal {
  return rest.reduce((low, next) => (compare(next, low) < 0 ? next : low), first)
}

export function maximum(first: Decimal, ...rest: Decimal[]): Decimal {
  return rest.reduce((high, next) => (compare(next, high) > 0 ? next : high), first)
}

export function absolute(a: Decimal): Decimal {
  return a.units < 0n ? negate(a) : a
}

/** The largest whole number n with n x divisor <= dividend (floor division); the divisor must be positive. */
export function floorDivide(dividend: Decimal, divisor: Decimal): bigint {
  if (divisor.units <= 0n) throw new RangeError('divisor must be positive')
  const [x, y] = align(dividend, divisor)
  const quotient = x / y
  return x < 0n && quotient * y !== x ? quotient - 1n : quotient
}

/** value x percent / 100, exact. */
export function percentOf(value: Decimal, percent: Decimal): Decimal {
  const product = multiply(value, percent)
  return { units: product.units, scale: product.scale + 2 }
}

/** Plain decimal text without trailing zeros (`12.5`, `-3`, `0`). */
export function toPlain(a: Decimal): string {
  if (a.scale <= 0) return (a.units * 10n ** BigInt(-a.scale)).toString()
  const text = toFixed(a, a.scale)
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
}
