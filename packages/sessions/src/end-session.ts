import type { FastifyReply, FastifyRequest } from 'fastify'
import { orUnavailable } from './errors.ts'
import type { RedisClient } from './redis-plugin.ts'
import { sessionCookieOptions } from './session-plugin.ts'
import { SESSION_COOKIE, type SessionSettings } from './settings.ts'
import { unindexSession } from './user-sessions.ts'

/**
 * Ends the request's session: destroyed in Redis, dropped from its user's index, cookie cleared. Used by
 * auth's sign-out and by the gateway for an expired, orphaned or banned session. Redis down: a 503.
 * Returns the user whose session it was (undefined for an anonymous one).
 */
export async function endSession(request: FastifyRequest, reply: FastifyReply, redis: RedisClient, settings: SessionSettings): Promise<string | undefined> {
  const userId = request.session.userId
  const sessionId = request.session.sessionId
  await orUnavailable(request.session.destroy())
  if (userId) await orUnavailable(unindexSession(redis, userId, sessionId))
  const { maxAge: _maxAge, ...cookie } = sessionCookieOptions(settings)
  reply.clearCookie(SESSION_COOKIE, cookie)
  return userId
}
