// The Accounts page's words (issue 22): an account's broker and status as a trader reads them.
import type { ResponseOf } from './api-routes.ts'

export type Account = ResponseOf<'GET /api/accounts'>['accounts'][number]
type LiveStatus = ResponseOf<'GET /api/live-trading-status'>['status']

/** Said beside an additional account's switches: it cannot go live yet, and why. */
const NOT_AVAILABLE = 'Cannot go live yet: only your primary account trades until the broker connection trades by account.'

/** "Tradovate, demo", or what is missing while the primary has no credentials. */
export function brokerText(account: Account, label: (name: string) => string): string {
  if (account.broker === null) return 'No broker login yet'
  return `${label(account.broker)}, ${account.environment ?? 'unknown environment'}`
}

/**
 * The status of an account: the primary's is the four-state indicator of `/api/live-trading-status` (the home
 * page's status card); an additional account has none yet (the connector reads accounts in a later stage).
 */
export function statusText(account: Account, primaryStatus: LiveStatus | null): string {
  if (!account.liveTradingAvailable) return NOT_AVAILABLE
  if (primaryStatus === null) return 'Not known: the status could not be read.'
  const reason = primaryStatus.indicatorReason === null ? '' : `: ${primaryStatus.indicatorReason}`
  switch (primaryStatus.indicator) {
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
