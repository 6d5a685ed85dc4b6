import type { FastifyReply, FastifyRequest } from 'fastify'

/**
 * DESIGN decision 2: only an administrator may use /api/admin; everyone else gets 403 "Administrator only".
 * An administrator is a caller the gateway vouches for with role admin AND whose e-mail is in this service's
 * ADMIN_EMAIL: taking an address out of the configuration ends its powers at once, without waiting for
 * its next sign-in to rewrite the role. Runs after the identity check (no valid identity: already 401).
 */
export function requireAdmin(adminEmails: ReadonlySet<string>) {
  return async function adminOnly(request: FastifyRequest, reply: FastifyReply) {
    const identity = request.identity
    if (identity?.role === 'admin' && adminEmails.has(identity.email.toLowerCase())) return
    request.log.warn({ userId: identity?.userId }, 'non-administrator refused')
    return reply.code(403).send({ success: false, error: 'Administrator only' })
  }
}
