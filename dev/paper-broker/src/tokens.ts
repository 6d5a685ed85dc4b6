import { randomBytes } from 'node:crypto'
import type { PaperLogin } from './paper-account.ts'

interface LoginSession {
  login: PaperLogin
  expiresAt: number
}

/** What a token opens: the trading socket (`accessToken`) or the market-data socket (`mdAccessToken`). */
export type TokenKind = 'trading' | 'md'

export interface IssuedTokens {
  token: string
  mdToken: string
  session: LoginSession
}

/**
 * Access tokens. A login opens a session with two tokens: the access token (trading socket, REST) and the
 * market-data token (`mdAccessToken`, the market-data socket). `auth/renewaccesstoken` issues new ones for
 * the same session and moves its expiry ("extends the current session without creating a new one"). A
 * socket authorized with any token of a session lives as long as the session does.
 */
export class TokenStore {
  readonly #tokens = new Map<string, { session: LoginSession; kind: TokenKind }>()
  readonly renewals: { name: string }[] = []

  constructor(private readonly ttlMs: number) {}

  issue(login: PaperLogin): IssuedTokens {
    return this.#issueFor({ login, expiresAt: Date.now() + this.ttlMs })
  }

  #issueFor(session: LoginSession): IssuedTokens {
    const token = randomBytes(24).toString('base64url')
    const mdToken = randomBytes(24).toString('base64url')
    this.#tokens.set(token, { session, kind: 'trading' })
    this.#tokens.set(mdToken, { session, kind: 'md' })
    return { token, mdToken, session }
  }

  /** The live session of an access token, or undefined when unknown, expired or a market-data token. */
  session(token: string): LoginSession | undefined {
    const found = this.authorized(token)
    return found?.kind === 'trading' ? found.session : undefined
  }

  /** The live session of a token of either kind, with the kind (what a socket's `authorize` accepts). */
  authorized(token: string): { session: LoginSession; kind: TokenKind } | undefined {
    const found = this.#tokens.get(token)
    return found && found.session.expiresAt > Date.now() ? found : undefined
  }

  renew(token: string): IssuedTokens | undefined {
    const session = this.session(token)
    if (!session) return undefined
    session.expiresAt = Date.now() + this.ttlMs
    this.renewals.push({ name: session.login.name })
    return this.#issueFor(session)
  }
}
