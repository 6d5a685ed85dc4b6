import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import { ErrorBody, UserProfile } from '@signals/contracts'
import { SESSION_COOKIE, sessionCookieOptions, sessionState, unindexSession, type SessionSettings } from '@signals/sessions'
import { findUser } from '../repositories/users.ts'

const Me = Type.Object({
  success: Type.Literal(true),
  user: UserProfile,
})

/** `GET /auth/logout` ends the session; `GET /auth/me` tells the pages who is signed in. */
export async function sessionRoutes(app: FastifyInstance, options: { settings: SessionSettings }) {
  const { settings } = options
  const { maxAge: _maxAge, ...clearOptions } = sessionCookieOptions(settings)

  app.get('/auth/logout', async (request, reply) => {
    const userId = request.session.userId
    const sessionId = request.session.sessionId
    await request.session.destroy()
    if (userId) {
      await unindexSession(app.redis, userId, sessionId)
      request.log.info({ userId }, 'signed out')
    }
    reply.clearCookie(SESSION_COOKIE, clearOptions)
    return reply.redirect('/login.html', 302)
  })

  app.get(
    '/auth/me',
    { schema: { response: { 200: Me, 401: ErrorBody } } },
    async (request, reply) => {
      const state = sessionState(request.session, settings)
      const user = state.kind === 'live' ? await findUser(app.db, state.userId) : undefined
      if (!user) return reply.code(401).send({ success: false as const, error: 'Authentication required' })
      return {
        success: true as const,
        user: { userId: user.user_id, email: user.email, name: user.name, picture: user.picture, approved: user.approved, role: user.role },
      }
    },
  )
}
