// Prices as the contract trades them: on its tick's decimals (`21000.00000000` from a decimal column reads
// `21000.00` for MNQ, `1.08450` for 6E), the tick sizes from @signals/instruments, never copied here.
import { contractSpec, parseDecimal, rootOf, toFixed, toPlain } from '@signals/instruments'

/** Decimals of a tick size written as text (`0.25` → 2, `1` → 0, `0.03125` → 5). */
const decimalsOf = (tick: string) => (tick.includes('.') ? tick.length - tick.indexOf('.') - 1 : 0)

/** The tick size of a contract or symbol (`MNQZ6`, `NQ1!`, `CME_MINI:ES1!`), when the platform knows it. */
export function tickOf(contractOrSymbol: string | null | undefined): string | null {
  const root = contractOrSymbol ? rootOf(contractOrSymbol) : null
  return (root === null ? undefined : contractSpec(root)?.tickSize) ?? null
}

/** A price on the contract's tick decimals; an unknown contract's price plain; '–' for none. */
export function priceOnTick(price: string | number | null | undefined, contractOrSymbol: string | null | undefined): string {
  if (price === null || price === undefined || price === '') return '–'
  let value
  try {
    value = parseDecimal(price)
  } catch {
    return String(price)
  }
  const tick = tickOf(contractOrSymbol)
  return tick === null ? toPlain(value) : toFixed(value, decimalsOf(tick))
}

/** Money in dollars with its sign (`−$12.50`), from exact decimal text; '–' for none. */
export function dollars(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined || amount === '') return '–'
  const value = Number(amount)
  if (!Number.isFinite(value)) return String(amount)
  return (value < 0 ? '−' : '') + '$' + Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
}
