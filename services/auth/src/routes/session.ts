import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { BannedBody, ErrorBody, UserProfile } from '@signals/contracts'
import { bannedSessionOwner, endSession, sessionState, type SessionSettings } from '@signals/sessions'
import { findUser } from '../repositories/users.ts'
import { logoutRefusal } from '../logout-origin.ts'

const Me = Type.Object({
  success: Type.Literal(true),
  user: UserProfile,
})

const Refused = { 403: ErrorBody }

/**
 * `POST /auth/logout` or `GET /auth/logout` (the spec's, typed or bookmarked too) ends the session; a request
 * from another site cannot (logout-origin.ts). `GET /auth/me` tells the pages who is signed in.
 */
export const sessionRoutes: FastifyPluginAsyncTypebox<{ settings: SessionSettings }> = async (app, options) => {
  const { settings } = options
  // The pages sign out with a one-button form: its (empty) url-encoded body carries nothing we read.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => {
    done(null, {})
  })

  const logout = async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = logoutRefusal(request.headers, settings.publicOrigin)
    if (refusal !== null) {
      request.log.warn({ method: request.method, origin: request.headers.origin, site: request.headers['sec-fetch-site'] }, 'sign-out refused')
      return reply.code(refusal.status).send({ success: false as const, error: refusal.error })
    }
    const userId = await endSession(request, reply, app.redis, settings)
    if (userId) request.log.info({ userId }, 'signed out')
    // 303: after a POST the browser loads the login page with a GET.
    return reply.redirect('/login.html', 303)
  }
  app.post('/auth/logout', { schema: { response: Refused } }, logout)
  app.get('/auth/logout', { schema: { response: Refused } }, logout)

  app.get(
    '/auth/me',
    { schema: { response: { 200: Me, 401: ErrorBody, 403: BannedBody } } },
    async (request, reply) => {
      const state = sessionState(request.session, settings)
      const user = state.kind === 'live' ? await findUser(app.db, state.userId) : undefined
      if (!user) {
        // A session a ban ended: the page (pending, polling here) tells the trader why, as the gateway does.
        const banned = state.kind === 'anonymous' ? await bannedSessionOwner(request, app.redis, settings) : null
        if (banned) return reply.code(403).send({ success: false as const, error: 'Account banned' as const, reason: banned.reason })
        return reply.code(401).send({ success: false as const, error: 'Authentication required' })
      }
      return {
        success: true as const,
        user: { userId: user.user_id, email: user.email, name: user.name, picture: user.picture, approved: user.approved, role: user.role },
      }
    },
  )
}
