import { parseDecimal, toFixed } from '@signals/instruments'

/**
 * A JSON number as the exact decimal text Postgres stores (`21000.25`, never `2.1e4` or a rounded
 * float): the shortest form that reads back as the same number, without an exponent.
 */
export function decimalText(value: number): string
export function decimalText(value: number | null): string | null
export function decimalText(value: number | null): string | null {
  if (value === null) return null
  // At 1e21 and beyond a double is an integer and JavaScript prints it with an exponent.
  if (Number.isFinite(value) && Math.abs(value) >= 1e21) return BigInt(value).toString()
  const decimal = parseDecimal(value)
  return toFixed(decimal, decimal.scale)
}
