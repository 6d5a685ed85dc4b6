import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * DESIGN decision 2: only a user whose role is admin (ADMIN_EMAIL at sign-in, vouched for by the gateway's
 * signed identity) may use /api/admin; everyone else gets 403 "Administrator only". An `onRequest` hook
 * added after the identity check, so a call without a valid identity has already been answered 401.
 */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
  if (request.identity?.role === 'admin') return
  request.log.warn({ userId: request.identity?.userId }, 'non-administrator refused')
  return reply.code(403).send({ success: false, error: 'Administrator only' })
}
