import { contract, UserActivityV1, type UserActivity } from '@signals/contracts'

const checkNotice = contract(UserActivityV1)

/** A `user_activity` NOTIFY payload as a bus notice, or null when it is not one (never thrown on). */
export function noticeOf(payload: string | undefined, now: Date): UserActivity | null {
  if (payload === undefined) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(payload)
  } catch {
    return null
  }
  const { userId, kind, id } = (parsed ?? {}) as Record<string, unknown>
  const notice: unknown = { version: 1, userId, kind, id, at: now.toISOString() }
  return checkNotice.check(notice) ? notice : null
}
