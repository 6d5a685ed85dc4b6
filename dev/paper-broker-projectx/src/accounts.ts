import type { MarketAccount } from '@signals/dev-paper-broker/engine'

/** A ProjectX trading account and the login (user name and API key) that holds it. */
export interface ProjectXPaperAccount {
  userName: string
  apiKey: string
  accountId: number
  accountName: string
  /** False: listed, but every order is refused (ProjectX's `canTrade`). Default true. */
  canTrade?: boolean
  /**
   * The account's bracket setting on the platform: `auto-oco` (default) accepts `stopLossBracket` /
   * `takeProfitBracket` on Order/place; `position` (Position Brackets) refuses them with errorCode 2, the
   * refused order still getting an id, as ProjectX does.
   */
  bracketMode?: 'auto-oco' | 'position'
}

export interface ProjectXLogin {
  userName: string
  apiKey: string
  accounts: readonly ProjectXPaperAccount[]
}

/** The logins of the configured accounts (entries sharing a user name are one login); throws on a conflict. */
export function loginsOf(accounts: readonly ProjectXPaperAccount[]): Map<string, ProjectXLogin> {
  const logins = new Map<string, ProjectXLogin & { accounts: ProjectXPaperAccount[] }>()
  const ids = new Set<number>()
  for (const account of accounts) {
    if (ids.has(account.accountId)) throw new RangeError(`projectx paper broker: account id ${account.accountId} is configured twice`)
    ids.add(account.accountId)
    const login = logins.get(account.userName)
    if (!login) logins.set(account.userName, { userName: account.userName, apiKey: account.apiKey, accounts: [account] })
    else if (login.apiKey !== account.apiKey) throw new RangeError(`projectx paper broker: the accounts of ${account.userName} must share its API key`)
    else login.accounts.push(account)
  }
  return logins
}

/** The engine's accounts: one user id per login, in the order given. */
export function marketAccountsOf(logins: Map<string, ProjectXLogin>): MarketAccount[] {
  return [...logins.values()].flatMap((login, index) => login.accounts.map((account) => ({ accountId: account.accountId, userId: 5000 + index, accountName: account.accountName, active: account.canTrade !== false })))
}

export const accountOf = (login: ProjectXLogin, accountId: unknown): ProjectXPaperAccount | undefined => login.accounts.find((account) => account.accountId === accountId)
