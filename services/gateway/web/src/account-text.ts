// The Accounts page's words (issue 22): an account's broker and status as a trader reads them.
import type { ResponseOf } from './api-routes.ts'

export type Account = ResponseOf<'GET /api/accounts'>['accounts'][number]

/** Said beside an additional account's switches: it cannot go live yet, and why. */
const NOT_AVAILABLE = 'Cannot go live yet: only your primary account trades until the broker connection trades by account.'

/** "Tradovate, demo", or what is missing while the primary has no credentials. */
export function brokerText(account: Account, label: (name: string) => string): string {
  if (account.broker === null) return 'No broker login yet'
  return `${label(account.broker)}, ${account.environment ?? 'unknown environment'}`
}

/**
 * The status of an account, its own as `GET /api/accounts` lists it: the primary's is the four-state indicator
 * of the home page's status card (the same reading); an additional account does not trade yet and says why.
 */
export function statusText(account: Account): string {
  if (!account.liveTradingAvailable || !account.status.trading) return NOT_AVAILABLE
  const { indicator, indicatorReason } = account.status
  const reason = indicatorReason === null ? '' : `: ${indicatorReason}`
  switch (indicator) {
    case 'green':
      return 'Ready: live trading on, orders placed automatically.'
    case 'yellow':
      return `Attention${reason}.`
    case 'red':
      return `Not trading${reason}.`
    default:
      return 'Live trading off.'
  }
}

/** The trader's logins, each once, named by its broker and the accounts it serves (for the "Login" select). */
export function loginsOf(accounts: readonly Account[], label: (name: string) => string): Array<{ id: string; text: string }> {
  const logins = new Map<string, Account[]>()
  for (const account of accounts) if (account.loginId !== null) logins.set(account.loginId, [...(logins.get(account.loginId) ?? []), account])
  return [...logins].map(([id, served]) => ({ id, text: `${brokerText(served[0] as Account, label)} login of ${served.map((account) => account.name).join(', ')}` }))
}
