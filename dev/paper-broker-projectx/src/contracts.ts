import { findContract, type PaperContract } from '@signals/dev-paper-broker/engine'
import { CONTRACTS, frontMonthContract, multiply, parseDecimal, toPlain } from '@signals/instruments'

const MONTH_CODES = 'FGHJKMNQUVXZ'
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/**
 * ProjectX's symbol id of each root (`F.US.<id>`). ENQ, EP, MNQ, MES, RTY are in ProjectX's own examples;
 * the others are as ProjectX clients map them (docs/decisions/projectx-paper-broker.md).
 */
const SYMBOL_IDS: Readonly<Record<string, string>> = {
  ES: 'EP',
  MES: 'MES',
  NQ: 'ENQ',
  MNQ: 'MNQ',
  YM: 'YM',
  MYM: 'MYM',
  RTY: 'RTY',
  M2K: 'M2K',
  CL: 'CLE',
  MCL: 'MCLE',
  GC: 'GCE',
  MGC: 'MGC',
  SI: 'SIE',
  NG: 'NGE',
  '6E': 'EU6',
  ZB: 'USA',
  ZN: 'TYA',
}
const ROOT_OF_SYMBOL_ID = new Map(Object.entries(SYMBOL_IDS).map(([root, id]) => [id, root]))

/** A contract as ProjectX's Contract/search and Contract/searchById return it. */
export interface ProjectXContract {
  id: string
  name: string
  description: string
  tickSize: number
  tickValue: number
  activeContract: boolean
  symbolId: string
}

const symbolIdOf = (root: string): string => SYMBOL_IDS[root] ?? root

/** The four-digit year of an engine contract's one-digit year: the decade from last year on (2025-2034 in 2026). */
function yearOf(digit: number, now: Date): number {
  const base = now.getUTCFullYear() - 1
  return base + ((digit - (base % 10) + 10) % 10)
}

/** `CON.F.US.ENQ.Z26` for the engine's `NQZ6`. */
export function projectXIdOf(contract: PaperContract, now: Date): string {
  const month = contract.name.at(-2) as string
  const year = yearOf(Number(contract.name.at(-1)), now)
  return `CON.F.US.${symbolIdOf(contract.spec.root)}.${month}${String(year % 100).padStart(2, '0')}`
}

/** The engine contract of a ProjectX contract id, or null when it names none the paper market lists. */
export function contractOfId(id: unknown, now: Date): PaperContract | null {
  if (typeof id !== 'string') return null
  const match = /^CON\.F\.US\.([A-Z0-9]+)\.([FGHJKMNQUVXZ])(\d{2})$/.exec(id)
  if (!match) return null
  const [, symbolId, month, yy] = match as unknown as [string, string, string, string]
  const root = ROOT_OF_SYMBOL_ID.get(symbolId) ?? (CONTRACTS.some((spec) => spec.root === symbolId && !SYMBOL_IDS[spec.root]) ? symbolId : null)
  if (root === null) return null
  const digit = Number(yy) % 10
  if (yearOf(digit, now) % 100 !== Number(yy)) return null
  return findContract(`${root}${month}${digit}`)
}

/** The ProjectX view of an engine contract; `activeContract` marks the front month (our roll calendar). */
export function contractView(contract: PaperContract, now: Date): ProjectXContract {
  const month = MONTH_CODES.indexOf(contract.name.at(-2) as string)
  const year = yearOf(Number(contract.name.at(-1)), now)
  const front = frontMonthContract(contract.spec.root, now)
  return {
    id: projectXIdOf(contract, now),
    name: contract.name,
    description: `${contract.spec.name}: ${MONTH_NAMES[month] as string} ${year}`,
    tickSize: Number(contract.spec.tickSize),
    tickValue: Number(toPlain(multiply(parseDecimal(contract.spec.tickSize), parseDecimal(contract.spec.pointValue)))),
    activeContract: front?.name === contract.name,
    symbolId: `F.US.${symbolIdOf(contract.spec.root)}`,
  }
}

/** The front and next contracts of a root, by the roll calendar. */
function listedOf(root: string, now: Date): PaperContract[] {
  return [`${root}1!`, `${root}2!`].flatMap((symbol) => {
    const dated = frontMonthContract(symbol, now)
    const contract = dated ? findContract(dated.name) : null
    return contract ? [contract] : []
  })
}

/**
 * `Contract/search {searchText}`: a dated name (`NQZ6`) finds that contract; a root (`NQ`) or ProjectX
 * symbol id (`ENQ`) its front and next contracts; other text the front and next contracts of every root
 * whose root or name contains it. At most 20, as ProjectX answers.
 */
export function searchContracts(searchText: string, now: Date): ProjectXContract[] {
  const text = searchText.trim().toUpperCase()
  const dated = text.length > 2 ? findContract(text) : null
  if (dated && dated.name === text) return [contractView(dated, now)]
  const exact = CONTRACTS.find((spec) => spec.root === text || symbolIdOf(spec.root) === text)
  const roots = exact ? [exact.root] : CONTRACTS.filter((spec) => spec.root.includes(text) || spec.name.toUpperCase().includes(text)).map((spec) => spec.root)
  return roots.flatMap((root) => listedOf(root, now)).slice(0, 20).map((contract) => contractView(contract, now))
}
