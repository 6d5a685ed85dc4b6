import type { User } from '@signals/db'
import { endUserSessions, orUnavailable, writeUserStatus, type RedisClient } from '@signals/sessions'

/** Publishes a user's current standing to Redis, where the gateway reads it on the next request. */
export async function publishStatus(redis: RedisClient, user: User, banned: boolean): Promise<void> {
  await orUnavailable(writeUserStatus(redis, user.user_id, { email: user.email, role: user.role, approved: user.approved, banned }))
}

/** Marks a user banned and ends every session they hold; returns how many sessions ended. */
export async function banInRedis(redis: RedisClient, user: User): Promise<number> {
  await publishStatus(redis, user, true)
  return orUnavailable(endUserSessions(redis, user.user_id))
}
