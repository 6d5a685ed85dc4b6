import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { conflict, nextTimeKeyCursorOf, notFound, timeKeyOf } from '@signals/http-kit'
import { listUsers, setApproved } from '../repositories/users.ts'
import { banOf } from '../repositories/bans.ts'
import { recordAudit } from '../repositories/audit.ts'
import { switchLiveTradingOff } from '../repositories/live-trading.ts'
import { requeueSourcesOf } from '../repositories/signal-sources.ts'
import { ApprovalBody, UserParams, UserResult, UsersPage, UsersQuery, userView } from '../schemas/users.ts'
import { publishStatus } from '../status-sync.ts'

/** User list, approval and revocation. */
export const userRoutes: FastifyPluginAsyncTypebox<{ adminEmails: ReadonlySet<string> }> = async (app, options) => {

  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'List users (newest first, paged by cursor; filter by approval; search by e-mail)',
        querystring: UsersQuery,
        response: { 200: UsersPage, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { status, search, limit, before } = request.query
      const users = await listUsers(app.db, { filter: status, search, limit, before: timeKeyOf(before) })
      return {
        success: true as const,
        users: users.map(({ banned, createdMicros: _createdMicros, ...user }) => userView(user, banned)),
        nextCursor: nextTimeKeyCursorOf(users, limit, (user) => ({ micros: user.createdMicros, key: user.user_id })),
      }
    },
  )

  const changeApproval = (approved: boolean) => async (request: { params: { userId: string }; body: { reason?: string } | null | undefined; identity: { userId: string } }) => {
    const { userId } = request.params
    const result = await app.db.transaction().execute(async (trx) => {
      const user = await setApproved(trx, userId, approved)
      if (!user) return undefined
      if (!approved && options.adminEmails.has(user.email.toLowerCase())) {
        throw conflict('This user is an administrator by ADMIN_EMAIL; remove the address there to revoke them')
      }
      await recordAudit(trx, { actorUserId: request.identity.userId, action: approved ? 'approve' : 'revoke', target: userId, reason: request.body?.reason })
      // An unapproved user is never traded: live trading off and the feed stopped, in the same transaction.
      if (!approved) await switchLiveTradingOff(trx, userId, 'approval revoked')
      // Their signal sources work only while they are approved (the settings relay checks them again).
      await requeueSourcesOf(trx, userId)
      return { user, ban: await banOf(trx, user.email) }
    })
    if (!result) throw notFound('User not found')
    await publishStatus(app.redis, result.user, result.ban !== undefined, result.ban?.reason ?? null)
    return { success: true as const, user: userView(result.user, result.ban !== undefined) }
  }

  app.post(
    '/api/admin/users/:userId/approve',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approve a user: their next request is let through',
        params: UserParams,
        body: ApprovalBody,
        response: { 200: UserResult, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => changeApproval(true)(request),
  )

  app.post(
    '/api/admin/users/:userId/revoke',
    {
      schema: {
        tags: ['admin'],
        summary: 'Revoke an approval: the user is pending again from their next request',
        params: UserParams,
        body: ApprovalBody,
        response: { 200: UserResult, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => changeApproval(false)(request),
  )
}
