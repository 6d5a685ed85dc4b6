import type { RedisClient } from './redis-plugin.ts'

/**
 * What the gateway needs to know about a user on every /api request, kept in Redis so the gateway needs no
 * database. Written by auth at sign-in and by admin on approve, revoke and ban; read by the gateway on every
 * request, so a change applies to the very next one.
 */
export interface UserStatus {
  email: string
  role: 'trader' | 'admin'
  approved: boolean
  banned: boolean
  /** The ban's reason, shown to the banned user wherever they are turned away (absent or null: none given). */
  banReason?: string | null
}

export const userStatusKey = (userId: string) => `user-status:${userId}`

export async function writeUserStatus(redis: RedisClient, userId: string, status: UserStatus): Promise<void> {
  await redis.set(userStatusKey(userId), JSON.stringify(status))
}

/** The stored status, or null when there is none (or it is unreadable): callers refuse the request then. */
export async function readUserStatus(redis: RedisClient, userId: string): Promise<UserStatus | null> {
  const raw = await redis.get(userStatusKey(userId))
  if (raw === null) return null
  try {
    const value = JSON.parse(raw) as Partial<UserStatus>
    if (typeof value.email !== 'string' || (value.role !== 'trader' && value.role !== 'admin')) return null
    if (typeof value.approved !== 'boolean' || typeof value.banned !== 'boolean') return null
    const status: UserStatus = { email: value.email, role: value.role, approved: value.approved, banned: value.banned }
    if (value.banned && typeof value.banReason === 'string') status.banReason = value.banReason
    return status
  } catch {
    return null
  }
}

export async function deleteUserStatus(redis: RedisClient, userId: string): Promise<void> {
  await redis.del(userStatusKey(userId))
}
