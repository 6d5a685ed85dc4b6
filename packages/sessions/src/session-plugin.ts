import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import fastifyCookie from '@fastify/cookie'
import fastifySession from '@fastify/session'
import { SESSION_COOKIE, type SessionSettings } from './settings.ts'
import { createSessionStore } from './store.ts'
import './session-data.ts'

export interface SessionPluginOptions {
  settings: SessionSettings
}

/** The session cookie's attributes (DESIGN decision 14); also what `clearCookie` must repeat. */
export function sessionCookieOptions(settings: SessionSettings) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: settings.secure, maxAge: settings.idleMs }
}

/**
 * @fastify/cookie + @fastify/session over Redis with the platform's one set of session settings. Registered
 * by auth (which creates sessions) and by the gateway (which reads them): same store, secret and cookie.
 * Sessions are saved only when modified (`saveUninitialized: false`, `rolling: false`), so anonymous
 * requests write nothing to Redis and a signed-in request writes only when it slides the idle deadline.
 * Requires the `redis` plugin.
 */
export const sessionPlugin = fp(
  async (app: FastifyInstance, options: SessionPluginOptions) => {
    const { settings } = options
    await app.register(fastifyCookie)
    await app.register(fastifySession, {
      secret: settings.secret,
      cookieName: SESSION_COOKIE,
      store: createSessionStore(app.redis, settings),
      saveUninitialized: false,
      rolling: false,
      cookie: sessionCookieOptions(settings),
    })
  },
  { name: 'signals-session', dependencies: ['redis'] },
)
