import { randomBytes } from 'node:crypto'
import { Signer } from '@fastify/cookie'
import type { RedisClient } from './redis-plugin.ts'
import { SESSION_COOKIE, SESSION_KEY_PREFIX, type SessionSettings } from './settings.ts'
import { indexSession } from './user-sessions.ts'
import { writeUserStatus, type UserStatus } from './user-status.ts'

/**
 * Writes a signed-in session exactly as auth's sign-in leaves it (body, index, user status) and returns
 * the browser's `Cookie` header. For benchmarks and tests that need a session without a provider round-trip;
 * it can do nothing an attacker could, as it needs Redis and the session secret.
 */
export async function mintSession(redis: RedisClient, settings: SessionSettings, userId: string, status: UserStatus): Promise<string> {
  const sessionId = randomBytes(24).toString('base64url')
  const now = Date.now()
  const body = {
    cookie: { originalMaxAge: settings.idleMs, expires: new Date(now + settings.idleMs).toISOString(), secure: settings.secure, httpOnly: true, path: '/', sameSite: 'lax' },
    userId,
    signedInAt: now,
    lastSeenAt: now,
  }
  await redis.set(SESSION_KEY_PREFIX + sessionId, JSON.stringify(body), { expiration: { type: 'PX', value: settings.idleMs } })
  await indexSession(redis, userId, sessionId, settings.absoluteMs)
  await writeUserStatus(redis, userId, status)
  return `${SESSION_COOKIE}=${encodeURIComponent(new Signer(settings.secret).sign(sessionId))}`
}
