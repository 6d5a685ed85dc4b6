import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import Type from 'typebox'
import { ErrorBody } from '@signals/contracts'
import { listAudit } from '../repositories/audit.ts'
import { AuditView, Paging, auditView } from '../schemas.ts'

/** `GET /api/admin/audit`: every administrator action, newest first. */
export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log of administrator actions (actor, target, action, reason, time)',
        querystring: Type.Object({
          action: Type.Optional(Type.Union([Type.Literal('approve'), Type.Literal('revoke'), Type.Literal('ban'), Type.Literal('unban'), Type.Literal('replay')])),
          actor: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "the acting administrator's user id" })),
          ...Paging,
        }),
        response: { 200: Type.Object({ success: Type.Literal(true), entries: Type.Array(AuditView), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() }), 403: ErrorBody },
      },
    },
    async (request) => {
      const { action, actor, page, pageSize } = request.query
      const { entries, total } = await listAudit(app.db, { action, actor, offset: (page - 1) * pageSize, limit: pageSize })
      return { success: true as const, entries: entries.map(auditView), total, page, pageSize }
    },
  )
}
