/** A futures contract's specification: the minimum price move and what one point is worth per contract. */
export interface ContractSpec {
  root: string
  name: string
  exchange: string
  /** Minimum price increment. */
  tickSize: string
  /** Money per 1.0 price point per contract (USD). */
  pointValue: string
}

const spec = (root: string, name: string, exchange: string, tickSize: string, pointValue: string): ContractSpec => ({
  root,
  name,
  exchange,
  tickSize,
  pointValue,
})

/** CME Group specifications of the contracts the platform trades. */
export const CONTRACTS: readonly ContractSpec[] = [
  spec('ES', 'E-mini S&P 500', 'CME', '0.25', '50'),
  spec('MES', 'Micro E-mini S&P 500', 'CME', '0.25', '5'),
  spec('NQ', 'E-mini Nasdaq-100', 'CME', '0.25', '20'),
  spec('MNQ', 'Micro E-mini Nasdaq-100', 'CME', '0.25', '2'),
  spec('YM', 'E-mini Dow', 'CBOT', '1', '5'),
  spec('MYM', 'Micro E-mini Dow', 'CBOT', '1', '0.5'),
  spec('RTY', 'E-mini Russell 2000', 'CME', '0.1', '50'),
  spec('M2K', 'Micro E-mini Russell 2000', 'CME', '0.1', '5'),
  spec('CL', 'Crude Oil', 'NYMEX', '0.01', '1000'),
  spec('MCL', 'Micro WTI Crude Oil', 'NYMEX', '0.01', '100'),
  spec('GC', 'Gold', 'COMEX', '0.1', '100'),
  spec('MGC', 'Micro Gold', 'COMEX', '0.1', '10'),
  spec('SI', 'Silver', 'COMEX', '0.005', '5000'),
  spec('NG', 'Henry Hub Natural Gas', 'NYMEX', '0.001', '10000'),
  spec('6E', 'Euro FX', 'CME', '0.00005', '125000'),
  spec('ZB', '30-Year U.S. Treasury Bond', 'CBOT', '0.03125', '1000'),
  spec('ZN', '10-Year U.S. Treasury Note', 'CBOT', '0.015625', '1000'),
]

const BY_ROOT = new Map(CONTRACTS.map((contract) => [contract.root, contract]))
/** Longest roots first, so MNQ is tried before NQ. */
const ROOTS_LONGEST_FIRST = [...BY_ROOT.keys()].sort((a, b) => b.length - a.length)
const MONTH_CODES = 'FGHJKMNQUVXZ'

export function contractSpec(root: string): ContractSpec | undefined {
  return BY_ROOT.get(root.toUpperCase())
}

/**
 * The contract root of a symbol as alerting platforms write it: plain (`NQ`), continuous (`NQ1!`,
 * `NQ2!`), dated (`NQZ6`, `NQZ2026`), with an exchange prefix (`CME_MINI:NQ1!`). Null when unknown.
 */
export function rootOf(symbol: string): string | null {
  const remembered = ROOT_OF_SYMBOL.get(symbol)
  if (remembered !== undefined) return remembered
  const root = findRoot(symbol)
  if (ROOT_OF_SYMBOL.size < MAX_REMEMBERED_SYMBOLS) ROOT_OF_SYMBOL.set(symbol, root)
  return root
}

/** Alerts name the same few symbols over and over; each is mapped once (the table stops growing at this size). */
const MAX_REMEMBERED_SYMBOLS = 4096
const ROOT_OF_SYMBOL = new Map<string, string | null>()

function findRoot(symbol: string): string | null {
  const bare = symbol.trim().toUpperCase().split(':').pop() ?? ''
  for (const root of ROOTS_LONGEST_FIRST) {
    if (!bare.startsWith(root)) continue
    const rest = bare.slice(root.length)
    if (rest === '' || /^\d{1,2}!$/.test(rest)) return root
    if (rest.length >= 2 && MONTH_CODES.includes(rest[0] as string) && /^\d{1,4}$/.test(rest.slice(1))) return root
  }
  return null
}
