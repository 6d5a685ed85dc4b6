import { BrokerError } from '../broker-adapter.ts'

// ProjectX names contracts by text (`CON.F.US.ENQ.Z25`); the seam and the `broker_contract_id` columns carry
// a number. A futures id is written here as a number that reads back to the same text, with no table: the
// same contract has the same number in every session and after a restart (reconciliation, stored trades).

const PATTERN = /^CON\.F\.US\.([A-Z0-9]{1,8})\.([FGHJKMNQUVXZ])(\d{2})$/
const MONTHS = 'FGHJKMNQUVXZ'
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
/** 37 symbols: 0 ends the symbol id, 1..36 its characters. 37^8 x 1200 stays below 2^53. */
const BASE = 37

/** The number of a ProjectX futures contract id; a refusal that names it for any other shape. */
export function contractNumberOf(contractId: string): number {
  const match = PATTERN.exec(contractId)
  if (!match) throw new BrokerError('rejected', `ProjectX contract ${JSON.stringify(contractId.slice(0, 40))} is not a US futures contract id (CON.F.US.<symbol>.<month><yy>); this connector trades those only`)
  const [, symbol, month, year] = match as unknown as [string, string, string, string]
  let code = 0
  for (const char of symbol) code = code * BASE + DIGITS.indexOf(char) + 1
  return (code * 12 + MONTHS.indexOf(month)) * 100 + Number(year)
}

/** The ProjectX contract id a number stands for, or null for a number no id gives. */
export function contractIdOf(contractNumber: number): string | null {
  if (!Number.isSafeInteger(contractNumber) || contractNumber <= 0) return null
  const year = contractNumber % 100
  const month = Math.floor(contractNumber / 100) % 12
  let code = Math.floor(contractNumber / 1200)
  let symbol = ''
  while (code > 0) {
    const digit = code % BASE
    if (digit === 0) return null
    symbol = (DIGITS[digit - 1] as string) + symbol
    code = Math.floor(code / BASE)
  }
  if (symbol === '') return null
  return `CON.F.US.${symbol}.${MONTHS[month] as string}${String(year).padStart(2, '0')}`
}

/** The number of a contract id as the wire gives it (events, lists), or null when it is not one. */
export function contractNumberOrNull(value: unknown): number | null {
  if (typeof value !== 'string') return null
  try {
    return contractNumberOf(value)
  } catch {
    return null
  }
}
