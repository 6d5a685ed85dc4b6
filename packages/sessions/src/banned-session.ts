import type { FastifyRequest } from 'fastify'
import fastifyCookie from '@fastify/cookie'
import { orUnavailable } from './errors.ts'
import type { RedisClient } from './redis-plugin.ts'
import { SESSION_COOKIE, type SessionSettings } from './settings.ts'
import { BANNED_SESSION_PREFIX } from './user-sessions.ts'
import { readUserStatus } from './user-status.ts'

const signers = new WeakMap<SessionSettings, InstanceType<typeof fastifyCookie.Signer>>()

/** The session id the request's cookie names (signature checked), whether or not that session still exists. */
function presentedSessionId(request: FastifyRequest, settings: SessionSettings): string | null {
  const cookie = request.cookies[SESSION_COOKIE]
  if (cookie === undefined || cookie === '') return null
  let signer = signers.get(settings)
  if (signer === undefined) signers.set(settings, (signer = new fastifyCookie.Signer(settings.secret, 'sha256')))
  const unsigned = signer.unsign(cookie)
  return unsigned.valid ? unsigned.value : null
}

/**
 * For a request whose session is gone: the user and ban reason, when a ban ended that session and the user
 * is still banned; otherwise null. A ban ends every session at once (admin), so without this the banned
 * trader's next request would look merely signed out. One Redis read, only for a cookie naming a dead session.
 */
export async function bannedSessionOwner(request: FastifyRequest, redis: RedisClient, settings: SessionSettings): Promise<{ userId: string; reason: string | null } | null> {
  const sessionId = presentedSessionId(request, settings)
  if (sessionId === null) return null
  const userId = await orUnavailable(redis.get(BANNED_SESSION_PREFIX + sessionId))
  if (userId === null) return null
  const status = await orUnavailable(readUserStatus(redis, userId))
  if (status === null || !status.banned) return null
  return { userId, reason: status.banReason ?? null }
}
