import type { SessionSettings } from './settings.ts'

declare module 'fastify' {
  /** What a signed-in session holds. Everything else about the user is read fresh on each request. */
  interface Session {
    userId?: string
    /** Epoch ms of sign-in: the absolute time-out counts from here. */
    signedInAt?: number
    /** Epoch ms of the last request that slid the idle deadline. */
    lastSeenAt?: number
  }
}

export interface SessionFields {
  userId?: unknown
  signedInAt?: unknown
  lastSeenAt?: unknown
}

export type SessionState = { kind: 'anonymous' } | { kind: 'expired'; userId: string } | { kind: 'live'; userId: string; stale: boolean }

/**
 * Classifies a loaded session: no user, past its idle or absolute deadline, or live (and `stale` when its
 * idle deadline should slide). Redis expiry enforces the same deadlines; this check does not trust it alone.
 */
export function sessionState(session: SessionFields | null | undefined, settings: SessionSettings, now = Date.now()): SessionState {
  const userId = session?.userId
  if (typeof userId !== 'string' || userId.length === 0) return { kind: 'anonymous' }
  const signedInAt = session?.signedInAt
  const lastSeenAt = session?.lastSeenAt
  if (typeof signedInAt !== 'number' || typeof lastSeenAt !== 'number') return { kind: 'expired', userId }
  if (now - signedInAt >= settings.absoluteMs || now - lastSeenAt >= settings.idleMs) return { kind: 'expired', userId }
  return { kind: 'live', userId, stale: now - lastSeenAt >= settings.touchAfterMs }
}
