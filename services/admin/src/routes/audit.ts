import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { beforeIdOf, nextCursorOf } from '@signals/http-kit'
import { listAudit, type AuditEntryWithEmails } from '../repositories/audit.ts'
import { AuditPage, AuditQuery, type AuditView } from '../schemas/audit.ts'

/** An audit entry as the page shows it. */
const auditView = (entry: AuditEntryWithEmails): AuditView => ({
  id: entry.id,
  actorUserId: entry.actor_user_id,
  actorEmail: entry.actor_email,
  action: entry.action,
  target: entry.target,
  targetEmail: entry.target_email,
  reason: entry.reason,
  createdAt: entry.created_at.toISOString(),
})

/** `GET /api/admin/audit`: every administrator action, newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log of administrator actions (actor, target, action, reason, time)',
        querystring: AuditQuery,
        response: { 200: AuditPage, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { action, actor, limit, before } = request.query
      const entries = await listAudit(app.db, { action, actor, limit, beforeId: beforeIdOf(before) })
      return { success: true as const, entries: entries.map(auditView), nextCursor: nextCursorOf(entries, limit) }
    },
  )
}
