import { BrokerError } from '../broker-adapter.ts'
import { int, isObject } from './wire-values.ts'

interface ListedAccount {
  id: number
  name: string
  active: boolean
}

/** At most this many names in the refusal (a status line, not a listing). */
const NAMES_SHOWN = 10

function listed(accounts: unknown): ListedAccount[] {
  if (!Array.isArray(accounts)) return []
  return accounts.filter(isObject).flatMap((account) => {
    const id = int(account.id)
    if (id === null || typeof account.name !== 'string') return []
    return [{ id, name: account.name, active: account.active !== false && account.archived !== true }]
  })
}

/**
 * The account of the login (the sync snapshot's `accounts`) that the trader saved: by its name or its
 * numeric id, exactly. None, two, or a closed one is `account_not_found`, whose message names the login's
 * active accounts (names are not secrets) so the trader can correct the setting.
 */
export function savedAccount(accounts: unknown, wanted: string): { id: number; name: string } {
  const all = listed(accounts)
  const text = wanted.trim()
  const active = all.filter((account) => account.active).map((account) => account.name)
  const offer = active.length === 0 ? '(it has no active account)' : `(its active accounts: ${active.slice(0, NAMES_SHOWN).join(', ')}${active.length > NAMES_SHOWN ? ', ...' : ''}); save one of these as the account`
  const matches = all.filter((account) => account.name === text || String(account.id) === text)
  if (matches.length === 0) throw new BrokerError('account_not_found', `the broker login has no account ${JSON.stringify(text)} ${offer}`)
  if (matches.length > 1) throw new BrokerError('account_not_found', `${JSON.stringify(text)} names two accounts of the broker login (one by id, one by name) ${offer}`)
  const [match] = matches as [ListedAccount]
  if (!match.active) throw new BrokerError('account_not_found', `the broker account ${match.name} is not active ${offer}`)
  return { id: match.id, name: match.name }
}
