import { parseDecimal, toFixed } from '@signals/instruments'

/**
 * A JSON number as the exact decimal text Postgres stores (`21000.25`, never `2.1e4` or a rounded
 * float): the shortest form that reads back as the same number, without an exponent.
 */
export function decimalText(value: number): string
export function decimalText(value: number | null): string | null
export function decimalText(value: number | null): string | null {
  if (value === null) return null
  const decimal = parseDecimal(value)
  return toFixed(decimal, decimal.scale)
}
