import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { beforeIdOf, conflict, nextCursorOf, notFound } from '@signals/http-kit'
import { deleteBan, listBans, upsertBan } from '../repositories/bans.ts'
import { usersWithEmail } from '../repositories/users.ts'
import { recordAudit } from '../repositories/audit.ts'
import { switchLiveTradingOff } from '../repositories/live-trading.ts'
import { revokeSourcesOf } from '../repositories/signal-sources.ts'
import { BanBody, BanParams, BanResult, BansPage, BansQuery, LiftedBan, banView, normalizeEmail } from '../schemas/bans.ts'
import { banInRedis, publishStatus } from '../status-sync.ts'

/** Ban list; a ban ends the user's sessions at once (DESIGN decision 4). */
export const banRoutes: FastifyPluginAsyncTypebox<{ adminEmails: ReadonlySet<string> }> = async (app, options) => {

  app.get(
    '/api/admin/bans',
    {
      schema: {
        tags: ['admin'],
        summary: 'List banned e-mails (newest first, paged by cursor)',
        querystring: BansQuery,
        response: { 200: BansPage, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const { limit, before } = request.query
      const bans = await listBans(app.db, { limit, beforeId: beforeIdOf(before) })
      return { success: true as const, bans: bans.map(banView), nextCursor: nextCursorOf(bans, limit) }
    },
  )

  app.post(
    '/api/admin/bans',
    {
      schema: {
        tags: ['admin'],
        summary: 'Ban an e-mail (or change the reason of a ban): sign-in is refused and live sessions end at once',
        body: BanBody,
        response: {
          200: BanResult,
          201: BanResult,
          400: ErrorBody,
          403: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const email = normalizeEmail(request.body.email)
      const reason = request.body.reason?.trim() || null
      if (options.adminEmails.has(email)) throw conflict('This e-mail is an administrator by ADMIN_EMAIL; remove it there before banning it')
      const { ban, created, users } = await app.db.transaction().execute(async (trx) => {
        const users = await usersWithEmail(trx, email)
        // One account per e-mail in practice; should several share it, the most recent one is recorded.
        const result = await upsertBan(trx, email, reason, latestUser(users)?.user_id ?? null)
        await recordAudit(trx, { actorUserId: request.identity.userId, action: 'ban', target: email, reason })
        // A banned user is never traded: live trading off and the feed stopped, in the ban's transaction.
        for (const user of users) await switchLiveTradingOff(trx, user.user_id, 'account banned')
        // Their signal sources are revoked with the ban: their URLs stop working (issue 22).
        for (const user of users) await revokeSourcesOf(trx, user.user_id)
        return { ...result, users }
      })
      // After the commit: a sign-in racing this ban either finds its session ended here or sees the ban
      // in its own post-sign-in check. Re-posting a ban repeats this step, so a 503 here is safe to retry.
      let sessionsEnded = 0
      for (const user of users) sessionsEnded += await banInRedis(app.redis, user, ban.reason)
      request.log.info({ users: users.length, sessionsEnded }, 'e-mail banned')
      return reply.code(created ? 201 : 200).send({ success: true as const, ban: banView(ban), sessionsEnded })
    },
  )

  app.delete(
    '/api/admin/bans/:email',
    {
      schema: {
        tags: ['admin'],
        summary: 'Lift a ban',
        params: BanParams,
        response: { 200: LiftedBan, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const email = normalizeEmail(request.params.email)
      const { ban, users } = await app.db.transaction().execute(async (trx) => {
        const removed = await deleteBan(trx, email)
        if (!removed) return { ban: undefined, users: [] }
        await recordAudit(trx, { actorUserId: request.identity.userId, action: 'unban', target: email })
        return { ban: removed, users: await usersWithEmail(trx, email) }
      })
      if (!ban) throw notFound('E-mail is not banned')
      for (const user of users) await publishStatus(app.redis, user, false)
      return { success: true as const, email }
    },
  )
}

/** The most recently updated of the accounts using an e-mail. */
function latestUser<U extends { updated_at: Date }>(users: readonly U[]): U | undefined {
  return users.reduce<U | undefined>((latest, user) => (latest === undefined || user.updated_at > latest.updated_at ? user : latest), undefined)
}
