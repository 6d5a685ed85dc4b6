import type { FastifyReply, FastifyRequest } from 'fastify'
import {
  bannedSessionOwner,
  endSession,
  sessionCookieOptions,
  SESSION_COOKIE,
  orUnavailable,
  readUserStatus,
  sessionState,
  type RedisClient,
  type SessionSettings,
  type UserStatus,
} from '@signals/sessions'

export type Access =
  | { kind: 'anonymous' }
  | { kind: 'banned'; reason: string | null }
  | { kind: 'pending'; userId: string; status: UserStatus }
  | { kind: 'approved'; userId: string; status: UserStatus }

const ANONYMOUS: Access = { kind: 'anonymous' }

/**
 * Who is calling, from the session and the user's status in Redis (read on every request, so an approval,
 * a revocation or a ban applies to the very next one). A session past its deadline, of a user with no
 * status, or of a banned user is destroyed on the spot. A live session's idle deadline slides (the session
 * is rewritten) at most once a minute. A cookie whose session a ban ended (admin ends them all at once) is
 * answered as banned, with the reason, so the trader learns why rather than seeing a lost session.
 */
export async function resolveAccess(request: FastifyRequest, reply: FastifyReply, redis: RedisClient, settings: SessionSettings): Promise<Access> {
  const state = sessionState(request.session, settings)
  if (state.kind === 'anonymous') return endedByBan(request, reply, redis, settings)
  if (state.kind === 'expired') {
    await endSession(request, reply, redis, settings)
    return ANONYMOUS
  }
  const status = await orUnavailable(readUserStatus(redis, state.userId))
  if (status === null) {
    await endSession(request, reply, redis, settings)
    return ANONYMOUS
  }
  if (status.banned) {
    await endSession(request, reply, redis, settings)
    request.log.info({ userId: state.userId }, 'session of a banned user ended')
    return { kind: 'banned', reason: status.banReason ?? null }
  }
  if (state.stale) request.session.lastSeenAt = Date.now()
  return { kind: status.approved ? 'approved' : 'pending', userId: state.userId, status }
}

async function endedByBan(request: FastifyRequest, reply: FastifyReply, redis: RedisClient, settings: SessionSettings): Promise<Access> {
  const owner = await bannedSessionOwner(request, redis, settings)
  if (owner === null) return ANONYMOUS
  // The session is gone already: only the browser's cookie is left to clear.
  const { maxAge: _maxAge, ...cookie } = sessionCookieOptions(settings)
  reply.clearCookie(SESSION_COOKIE, cookie)
  return { kind: 'banned', reason: owner.reason }
}
