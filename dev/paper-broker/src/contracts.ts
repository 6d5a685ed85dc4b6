import { CONTRACTS, type ContractSpec } from '@signals/instruments'
import type { Contract } from '@signals/tradovate-wire'

const MONTH_CODES = 'FGHJKMNQUVXZ'
/** Longest roots first, so `MNQZ6` is MNQ, not a malformed NQ name. */
const ROOTS = CONTRACTS.map((spec, index) => ({ spec, index })).sort((a, b) => b.spec.root.length - a.spec.root.length)

export interface PaperContract extends Contract {
  spec: ContractSpec
}

/**
 * The dated contracts the paper market lists: every root of `@signals/instruments` with any month code and a
 * one-digit year, as Tradovate names them (`MNQZ6`). The id is computed from the name (root position, year
 * digit, month), so it is the same in every run and in every test.
 */
export function findContract(name: string): PaperContract | null {
  const upper = name.trim().toUpperCase()
  for (const { spec, index } of ROOTS) {
    if (!upper.startsWith(spec.root)) continue
    const rest = upper.slice(spec.root.length)
    const month = MONTH_CODES.indexOf(rest[0] ?? '?')
    if (rest.length !== 2 || month < 0 || !/^\d$/.test(rest[1] as string)) continue
    const id = 3_000_000 + index * 1_000 + Number(rest[1]) * 100 + month
    return { id, name: upper, contractMaturityId: id + 500_000, spec }
  }
  return null
}

const BY_ID = new Map<number, string>()

/** The contract of an id handed out by `findContract` (ids are derived from names, so any valid one resolves). */
export function contractById(id: number): PaperContract | null {
  const known = BY_ID.get(id)
  if (known) return findContract(known)
  const index = Math.floor((id - 3_000_000) / 1_000)
  const spec = CONTRACTS[index]
  const rest = id - 3_000_000 - index * 1_000
  const year = Math.floor(rest / 100)
  const month = rest % 100
  if (!spec || id < 3_000_000 || year > 9 || month >= 12) return null
  const name = `${spec.root}${MONTH_CODES[month] as string}${year}`
  BY_ID.set(id, name)
  return findContract(name)
}
