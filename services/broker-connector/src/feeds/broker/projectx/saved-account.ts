import { BrokerError, type BrokerAccount } from '../broker-adapter.ts'
import type { Answer } from './rest.ts'

/**
 * The account the trader saved, from `Account/search`: by its name (`PAPERX7000`, `50KTC-V2-...`) or its
 * id, exactly (surrounding spaces ignored). None, or one that cannot trade, opens no session: the
 * refusal lists what the login has, never a guess at another account.
 */
export function savedAccount(answer: Answer, wanted: string): BrokerAccount {
  const accounts = (Array.isArray(answer.accounts) ? answer.accounts : []).filter(
    (account): account is { id: number; name: string; canTrade?: unknown } => typeof account === 'object' && account !== null && Number.isSafeInteger((account as { id?: unknown }).id) && typeof (account as { name?: unknown }).name === 'string',
  )
  const key = wanted.trim()
  const found = accounts.find((account) => account.name === key || String(account.id) === key)
  const listed = accounts.map((account) => account.name).join(', ') || 'none'
  if (!found) throw new BrokerError('account_not_found', `the ProjectX login has no account ${JSON.stringify(key)} (it has: ${listed})`)
  if (found.canTrade === false) throw new BrokerError('account_not_found', `the ProjectX account ${found.name} cannot trade (canTrade false)`)
  return { id: found.id, name: found.name }
}
