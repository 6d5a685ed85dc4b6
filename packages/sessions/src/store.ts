import { RedisStore } from 'connect-redis'
import type { SessionStore } from '@fastify/session'
import { serviceUnavailable } from '@signals/http-kit'
import type { RedisClient } from './redis-plugin.ts'
import { SESSION_KEY_PREFIX, type SessionSettings } from './settings.ts'
import type { SessionFields } from './session-data.ts'

type Callback = (error?: unknown, value?: unknown) => void

/** Seconds a session body may live in Redis: until its idle deadline, and never past its absolute one. */
export function sessionTtlSeconds(session: SessionFields & { cookie?: { expires?: unknown } }, settings: SessionSettings, now = Date.now()): number {
  const expires = session.cookie?.expires
  const idleDeadline = expires ? new Date(expires as string | Date).getTime() : now + settings.idleMs
  const absoluteDeadline = typeof session.signedInAt === 'number' ? session.signedInAt + settings.absoluteMs : now + settings.absoluteMs
  return Math.ceil((Math.min(idleDeadline, absoluteDeadline) - now) / 1000)
}

/**
 * connect-redis on the shared node-redis client, key prefix `sess:`, TTL from `sessionTtlSeconds`.
 * A Redis failure reaches Fastify as a 503 (dependency down), never as a 500.
 */
export function createSessionStore(client: RedisClient, settings: SessionSettings): SessionStore {
  const store = new RedisStore({
    client,
    prefix: SESSION_KEY_PREFIX,
    ttl: (session) => sessionTtlSeconds(session as SessionFields, settings),
  })
  const unavailable = (callback: Callback) => (error?: unknown, value?: unknown) =>
    error ? callback(Object.assign(serviceUnavailable(), { cause: error })) : callback(undefined, value)
  return {
    get: (sid: string, callback: Callback) => void store.get(sid, unavailable(callback)),
    set: (sid: string, session: unknown, callback: Callback) => void store.set(sid, session as never, unavailable(callback)),
    destroy: (sid: string, callback: Callback) => void store.destroy(sid, unavailable(callback)),
  } as unknown as SessionStore
}
