import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { ALL_USER_ACTIVITY, userActivitySubject } from '@signals/contracts'
import type { SessionSettings } from '@signals/sessions'
import { SocketRegistry } from './socket-registry.ts'
import { liveRoute } from './live-route.ts'
import { sweepAccess, sweepUser } from './access-sweep.ts'
import { watchFeedStatus } from './feed-status-watch.ts'
import { publishNotice, subscribeNotices } from '@signals/bus'
import { noticeContract, statusNotice, userIdOfSubject } from './notices.ts'
import { announceSettingsSaves } from './settings-saves.ts'

export interface LivePluginOptions {
  settings: SessionSettings
  /** How often open sockets are checked against bans, approval and their session. */
  recheckMs: number
  /** How often each socket is pinged; one that did not answer the previous ping is dropped. */
  heartbeatMs: number
}

/**
 * The browsers' live sockets (issue 13): each approved user's open pages get the change notices meant for
 * them (UserActivityV1 JSON, one per message) from the bus, the feed-status bucket and settings saves made
 * through this gateway; the page refetches through /api on each. Registered in the session scope before
 * the API proxy, so its settings-save hook sees the proxied calls. Needs the bus and redis plugins.
 */
export const livePlugin = fp(
  async (app: FastifyInstance, options: LivePluginOptions) => {
    const registry = new SocketRegistry()
    const server = app.websocketServer
    await app.register(liveRoute, { settings: options.settings, registry })
    announceSettingsSaves(app)

    const subscription = subscribeNotices(app.bus, ALL_USER_ACTIVITY, noticeContract, (notice, subject) => {
      // The subject names the user (the notice's own userId is not trusted to route it).
      const userId = userIdOfSubject(subject)
      if (userId === null || !registry.has(userId)) return
      const text = JSON.stringify(notice)
      if (notice.kind !== 'status') return void registry.send(userId, text)
      // A status change may come from a ban or revocation (the admin service switches live trading off):
      // the user's access is checked first, so such a page learns of the ban, not of a dead session.
      sweepUser(app.redis, registry, userId)
        .then(() => registry.send(userId, text))
        .catch((sweepError: unknown) => app.log.warn({ err: sweepError }, 'live socket access check failed'))
    }, app.log)
    const feedWatch = await watchFeedStatus(app.bus, (userId) => {
      publishNotice(app.bus, userActivitySubject(userId), noticeContract, statusNotice(userId))
    }, app.log)

    const sweep = setInterval(() => {
      sweepAccess(app.redis, registry).catch((error: unknown) => app.log.warn({ err: error }, 'live socket access sweep failed'))
    }, options.recheckMs)
    // Each socket must answer a ping before the next one; the socket's pong (or its first moment, on
    // connection) marks it alive.
    const alive = new WeakSet<object>()
    const heartbeat = setInterval(() => {
      for (const socket of server.clients) {
        if (!alive.has(socket)) {
          socket.terminate()
          continue
        }
        alive.delete(socket)
        socket.ping()
      }
    }, options.heartbeatMs)
    server.on('connection', (socket) => {
      alive.add(socket)
      socket.on('pong', () => alive.add(socket))
    })

    app.addHook('onClose', async () => {
      clearInterval(sweep)
      clearInterval(heartbeat)
      subscription.unsubscribe()
      feedWatch.stop()
      for (const socket of server.clients) socket.terminate()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    })
  },
  { name: 'live-sockets', dependencies: ['bus', 'redis', 'signals-session', '@fastify/websocket'] },
)
