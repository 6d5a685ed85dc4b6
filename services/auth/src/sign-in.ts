import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Database, Kysely } from '@signals/db'
import { endUserSessions, indexSession, writeUserStatus, type RedisClient, type SessionSettings } from '@signals/sessions'
import { findBan, upsertSignedInUser } from './repositories/users.ts'
import { bannedPage } from './banned-page.ts'
import type { Profile } from './oidc/profile.ts'

export interface SignInContext {
  db: Kysely<Database>
  redis: RedisClient
  settings: SessionSettings
  adminEmails: ReadonlySet<string>
}

function refuseBanned(request: FastifyRequest, reply: FastifyReply, reason: string | null) {
  // DESIGN decision 4: a browser gets a page with the reason, a JSON client the JSON body.
  if ((request.headers.accept ?? '').includes('text/html')) {
    return reply.code(403).type('text/html; charset=utf-8').send(bannedPage(reason))
  }
  return reply.code(403).send({ success: false, error: 'Account banned', reason })
}

/**
 * The callback's work once the provider vouched for `profile`, in the spec's order: ban check (nothing
 * written for a banned e-mail), approval rule, upsert, a NEW session (the id changes at sign-in, so a
 * planted session id is worthless), then the redirect by approval.
 *
 * The session is indexed and the user's status written before a second ban check: an administrator's ban
 * that lands meanwhile either finds this session in the index or is seen here, so it always wins.
 */
export async function completeSignIn(context: SignInContext, request: FastifyRequest, reply: FastifyReply, profile: Profile, returnTo: string | null) {
  const { db, redis, settings } = context
  const ban = await findBan(db, profile)
  if (ban) {
    request.log.info({ userId: profile.sub }, 'sign-in refused: account banned')
    return refuseBanned(request, reply, ban.reason)
  }

  const isAdmin = context.adminEmails.has(profile.email.toLowerCase())
  const user = await upsertSignedInUser(db, profile, isAdmin)

  await request.session.regenerate()
  const now = Date.now()
  request.session.userId = user.user_id
  request.session.signedInAt = now
  request.session.lastSeenAt = now
  await request.session.save()
  const sessionId = request.session.sessionId
  await indexSession(redis, user.user_id, sessionId, settings.absoluteMs)
  await writeUserStatus(redis, user.user_id, { email: user.email, role: user.role, approved: user.approved, banned: false })

  const lateBan = await findBan(db, profile)
  if (lateBan) {
    await writeUserStatus(redis, user.user_id, { email: user.email, role: user.role, approved: user.approved, banned: true, banReason: lateBan.reason })
    await endUserSessions(redis, user.user_id, { banned: true })
    request.log.info({ userId: user.user_id }, 'sign-in refused: e-mail banned during sign-in')
    return refuseBanned(request, reply, lateBan.reason)
  }

  request.log.info({ userId: user.user_id, approved: user.approved, role: user.role }, 'signed in')
  return reply.redirect(user.approved ? (returnTo ?? '/') : '/pending-approval.html', 302)
}
