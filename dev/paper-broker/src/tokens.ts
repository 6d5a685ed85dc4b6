import { randomBytes } from 'node:crypto'
import type { PaperLogin } from './paper-account.ts'

interface LoginSession {
  login: PaperLogin
  expiresAt: number
}

/**
 * Access tokens. A login opens a session; `auth/renewaccesstoken` issues a new token for the same session
 * and moves its expiry ("extends the current session without creating a new one"). A socket authorized
 * with any token of a session lives as long as the session does.
 */
export class TokenStore {
  readonly #tokens = new Map<string, LoginSession>()
  readonly renewals: { name: string }[] = []

  constructor(private readonly ttlMs: number) {}

  issue(login: PaperLogin): { token: string; session: LoginSession } {
    const session = { login, expiresAt: Date.now() + this.ttlMs }
    const token = randomBytes(24).toString('base64url')
    this.#tokens.set(token, session)
    return { token, session }
  }

  /** The live session of a token, or undefined when unknown or expired. */
  session(token: string): LoginSession | undefined {
    const session = this.#tokens.get(token)
    return session && session.expiresAt > Date.now() ? session : undefined
  }

  renew(token: string): { token: string; session: LoginSession } | undefined {
    const session = this.session(token)
    if (!session) return undefined
    session.expiresAt = Date.now() + this.ttlMs
    const renewed = randomBytes(24).toString('base64url')
    this.#tokens.set(renewed, session)
    this.renewals.push({ name: session.login.name })
    return { token: renewed, session }
  }
}
