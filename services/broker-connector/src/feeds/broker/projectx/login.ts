import { BrokerError, type BrokerLogin } from '../broker-adapter.ts'
import { callApi, type RestOptions } from './rest.ts'

export type ProjectXLogin = BrokerLogin<'projectx'>

/** A session token and when it expires (the JWT's `exp`; ProjectX: 24 h). */
export interface SessionToken {
  token: string
  expiresAt: number
}

/** The expiry a JWT names, or 24 h from now when it names none (ProjectX documents 24 h). */
function expiryOf(token: string): number {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown }
    if (typeof claims.exp === 'number') return claims.exp * 1000
  } catch {
    // Not a JWT we can read: ProjectX's documented lifetime.
  }
  return Date.now() + 24 * 3_600_000
}

/** `Auth/loginKey {userName, apiKey}`: a refusal is the credentials refused (never retried until they change). */
export async function loginWithKey(rest: RestOptions, login: ProjectXLogin): Promise<SessionToken> {
  try {
    const answer = await callApi(rest, 'Auth/loginKey', { userName: login.username, apiKey: login.apiKey }, null)
    if (typeof answer.token !== 'string' || answer.token === '') throw new BrokerError('unavailable', 'Auth/loginKey: ProjectX answered without a token')
    return { token: answer.token, expiresAt: expiryOf(answer.token) }
  } catch (error) {
    // `Auth/loginKey: ProjectX refused (error 3): ...` as the trader reads it: the user name or the key.
    if (error instanceof BrokerError && error.kind === 'rejected') throw new BrokerError('credentials_refused', `ProjectX refused the user name or API key (${error.message.replace(/^Auth\/loginKey: ProjectX refused /, '')})`)
    throw error
  }
}

/** `Auth/validate`: a fresh token for one still valid. */
export async function validateToken(rest: RestOptions, current: string): Promise<SessionToken> {
  const answer = await callApi(rest, 'Auth/validate', {}, current)
  if (typeof answer.newToken !== 'string' || answer.newToken === '') throw new BrokerError('unavailable', 'Auth/validate: ProjectX answered without a new token')
  return { token: answer.newToken, expiresAt: expiryOf(answer.newToken) }
}
