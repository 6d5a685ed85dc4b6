import { type Decimal, parseDecimal, toFixed, toPlain } from '@signals/instruments'

export const ZERO: Decimal = { units: 0n, scale: 0 }

export const decimal = (value: string | number): Decimal => parseDecimal(value)

/** Money for a sentence: `$1,234.50`, `-$20.00`. */
export function money(value: Decimal): string {
  const text = toFixed(value, 2)
  const negative = text.startsWith('-')
  const [whole = '0', cents = '00'] = (negative ? text.slice(1) : text).split('.')
  return `${negative ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`
}

/** Money as exact text for the decision (`1234.5` stays `1234.50`). */
export const moneyText = (value: Decimal): string => toFixed(value, 2)

/** A price or point count for a sentence, without trailing zeros. */
export const plain = (value: Decimal): string => toPlain(value)
