import type { User } from '@signals/db'
import { endUserSessions, orUnavailable, writeUserStatus, type RedisClient } from '@signals/sessions'

/** Publishes a user's current standing to Redis, where the gateway reads it on the next request. */
export async function publishStatus(redis: RedisClient, user: User, banned: boolean, banReason: string | null = null): Promise<void> {
  const status = { email: user.email, role: user.role, approved: user.approved, banned, ...(banned ? { banReason } : {}) }
  await orUnavailable(writeUserStatus(redis, user.user_id, status))
}

/**
 * Marks a user banned (with the reason their pages show) and ends every session they hold, each remembered
 * as ended by a ban so its browser is told why; returns how many sessions ended.
 */
export async function banInRedis(redis: RedisClient, user: User, reason: string | null): Promise<number> {
  await publishStatus(redis, user, true, reason)
  return orUnavailable(endUserSessions(redis, user.user_id, { banned: true }))
}
