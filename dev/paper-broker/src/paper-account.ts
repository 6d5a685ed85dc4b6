/**
 * A trading account and the login that holds it. Entries that share a login `name` are one login with
 * several accounts, listed in the order given (as Tradovate lists a user's accounts); they must agree on
 * the password and `userId`.
 */
export interface PaperAccount {
  /** Login name (`name` in the access-token request). */
  name: string
  password: string
  /** Tradovate's numeric user id (the login's). */
  userId: number
  /** The trading account: its id and name (`accountSpec`). */
  accountId: number
  accountName: string
  /** False for a closed account: listed, but refuses orders (default true). */
  active?: boolean
}

/** A login with its trading accounts, oldest first. */
export interface PaperLogin {
  name: string
  password: string
  userId: number
  accounts: readonly PaperAccount[]
}

/** The logins of the configured accounts; throws when entries of one login disagree or an account id repeats. */
export function loginsOf(accounts: readonly PaperAccount[]): Map<string, PaperLogin> {
  const logins = new Map<string, PaperLogin & { accounts: PaperAccount[] }>()
  const ids = new Set<number>()
  for (const account of accounts) {
    if (ids.has(account.accountId)) throw new RangeError(`paper broker: account id ${account.accountId} is configured twice`)
    ids.add(account.accountId)
    const login = logins.get(account.name)
    if (!login) {
      logins.set(account.name, { name: account.name, password: account.password, userId: account.userId, accounts: [account] })
      continue
    }
    if (login.password !== account.password || login.userId !== account.userId) {
      throw new RangeError(`paper broker: the accounts of login ${account.name} must share its password and userId`)
    }
    login.accounts.push(account)
  }
  return logins
}

/** The login's account with this id, if it has one. */
export const accountOf = (login: PaperLogin, accountId: unknown): PaperAccount | undefined => login.accounts.find((account) => account.accountId === accountId)

/** A request as the broker saw it, for a test's `onRequest` hook and `requests` log (never a password). */
export interface SeenRequest {
  transport: 'rest' | 'ws'
  endpoint: string
  /** The parsed body (REST login: without the password). */
  body: unknown
  /** The login name of the socket's session or of the login request, when known. */
  name: string | null
  /** Whether the request carried a penalty ticket. */
  ticket: boolean
}
