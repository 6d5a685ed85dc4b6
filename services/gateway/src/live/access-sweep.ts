import { SESSION_KEY_PREFIX, readUserStatus, type RedisClient } from '@signals/sessions'
import { CloseCode } from './live-codes.ts'
import type { SocketRegistry } from './socket-registry.ts'

/**
 * Closes the sockets whose right to exist has gone: a ban, a revoked approval, an ended session (sign-out,
 * an administrator ending the user's sessions, expiry). The admin service writes these into Redis only, so
 * the gateway looks: once per sweep, one status read per connected user and one existence check per socket.
 */
export async function sweepAccess(redis: RedisClient, registry: SocketRegistry): Promise<void> {
  await Promise.all(registry.users().map((userId) => sweepUser(redis, registry, userId)))
}

export async function sweepUser(redis: RedisClient, registry: SocketRegistry, userId: string): Promise<void> {
  const sockets = registry.socketsOf(userId)
  const status = await readUserStatus(redis, userId)
  if (status === null) return registry.close(sockets, CloseCode.signedOut, 'signed out')
  if (status.banned) return registry.close(sockets, CloseCode.banned, 'banned')
  if (!status.approved) return registry.close(sockets, CloseCode.pending, 'pending approval')
  const alive = await Promise.all(sockets.map((entry) => redis.exists(SESSION_KEY_PREFIX + entry.sessionId)))
  registry.close(
    sockets.filter((_entry, index) => alive[index] === 0),
    CloseCode.signedOut,
    'session ended',
  )
}
