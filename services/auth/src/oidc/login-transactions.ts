import { randomBytes } from 'node:crypto'
import type { RedisClient } from '@signals/sessions'

/** Cookie naming the browser's pending sign-in; only the browser that started a sign-in can finish it. */
export const LOGIN_COOKIE = 'signals.login'
export const LOGIN_TTL_SECONDS = 600

/** One sign-in in flight: the values the callback must see again (OAuth state, OIDC nonce, PKCE verifier). */
export interface LoginTransaction {
  state: string
  nonce: string
  codeVerifier: string
  returnTo: string | null
}

const key = (id: string) => `login-tx:${id}`

/** Stores a transaction under a fresh random id (the cookie value) for ten minutes. */
export async function startLoginTransaction(redis: RedisClient, transaction: LoginTransaction): Promise<string> {
  const id = randomBytes(32).toString('base64url')
  await redis.set(key(id), JSON.stringify(transaction), { expiration: { type: 'EX', value: LOGIN_TTL_SECONDS } })
  return id
}

/** Takes the transaction out (single use: a replayed callback finds nothing). */
export async function takeLoginTransaction(redis: RedisClient, id: string | undefined): Promise<LoginTransaction | null> {
  if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null
  const raw = await redis.getDel(key(id))
  if (raw === null) return null
  const value = JSON.parse(raw) as LoginTransaction
  return value
}
