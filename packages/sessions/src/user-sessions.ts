import type { RedisClient } from './redis-plugin.ts'
import { SESSION_KEY_PREFIX } from './settings.ts'

/** Set of a user's session ids, so a ban can end all of them at once. */
export const userSessionsKey = (userId: string) => `user-sessions:${userId}`

/**
 * Adds a session to its user's index. Members whose session has already expired are dropped, and the
 * index expires with the longest session it can hold, so it never grows without bound.
 */
export async function indexSession(redis: RedisClient, userId: string, sessionId: string, absoluteMs: number): Promise<void> {
  const key = userSessionsKey(userId)
  const members = await redis.sMembers(key)
  const bodies = members.length > 0 ? await redis.mGet(members.map((id) => SESSION_KEY_PREFIX + id)) : []
  const gone = members.filter((_id, index) => bodies[index] === null)
  const transaction = redis.multi().sAdd(key, sessionId).pExpire(key, absoluteMs)
  if (gone.length > 0) transaction.sRem(key, gone)
  await transaction.exec()
}

export async function unindexSession(redis: RedisClient, userId: string, sessionId: string): Promise<void> {
  await redis.sRem(userSessionsKey(userId), sessionId)
}

// Atomic: a session indexed while a ban runs is either ended here or indexed after (and then seen by auth's
// post-sign-in ban check). Keys are derived inside the script; the platform runs one Redis, not a cluster.
// With a mark prefix, each ended session leaves `<mark prefix><id>` = the user id behind for a while.
const END_ALL_SCRIPT = `
local ids = redis.call('SMEMBERS', KEYS[1])
for _, id in ipairs(ids) do
  redis.call('DEL', ARGV[1] .. id)
  if ARGV[2] ~= '' then redis.call('SET', ARGV[2] .. id, ARGV[3], 'PX', ARGV[4]) end
end
redis.call('DEL', KEYS[1])
return #ids`

/** Where a session ended by a ban is remembered: its browser is told of the ban, not of a lost session. */
export const BANNED_SESSION_PREFIX = 'session-banned:'
/** How long: the default absolute session lifetime (a session older than that had ended anyway). */
const BANNED_SESSION_TTL_MS = 7 * 24 * 3_600_000

/**
 * Destroys every session of a user; returns how many were indexed. `banned`: each is remembered as ended by
 * a ban (BANNED_SESSION_PREFIX), so the next request from its browser learns of the ban and its reason
 * (bannedSessionOwner) instead of meeting a session that is simply gone.
 */
export async function endUserSessions(redis: RedisClient, userId: string, options: { banned?: boolean } = {}): Promise<number> {
  const mark = options.banned === true ? BANNED_SESSION_PREFIX : ''
  const ended = await redis.eval(END_ALL_SCRIPT, {
    keys: [userSessionsKey(userId)],
    arguments: [SESSION_KEY_PREFIX, mark, userId, String(BANNED_SESSION_TTL_MS)],
  })
  return Number(ended)
}
