import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { WebSocketServer } from 'ws'
import type { SessionSettings } from '@signals/sessions'
import { resolveAccess } from '../access/resolve-access.ts'
import { upgradeOf } from './upgrade-routing.ts'
import type { SocketRegistry } from './socket-registry.ts'
import { LiveRefusals } from '../schemas/live.ts'

export interface LiveRouteOptions {
  settings: SessionSettings
  server: WebSocketServer
  registry: SocketRegistry
}

/**
 * `GET /api/live` with `Upgrade: websocket`: the signed-in, approved user's socket for change notices.
 * The session cookie authenticates the upgrade, with the same session, ban and approval checks as /api;
 * the Origin must be our own (browsers always send it on a WebSocket, and the cookie rides along, so a
 * foreign page could otherwise open a socket as the user).
 */
export const liveRoute: FastifyPluginAsyncTypebox<LiveRouteOptions> = async (app, options) => {
  const { settings, server, registry } = options
  app.get(
    '/api/live',
    { schema: { hide: true, response: LiveRefusals } },
    async (request, reply) => {
      const upgrade = upgradeOf(request)
      if (upgrade === null) return reply.code(426).header('upgrade', 'websocket').send({ success: false, error: 'This route takes a WebSocket upgrade' })
      if (request.headers.origin !== settings.publicOrigin) return reply.code(403).send({ success: false, error: 'Cross-origin socket refused' })
      const access = await resolveAccess(request, reply, app.redis, settings)
      if (access.kind === 'anonymous') return reply.code(401).send({ success: false, error: 'Authentication required' })
      if (access.kind === 'banned') return reply.code(403).send({ success: false, error: 'Account banned' })
      if (access.kind === 'pending') return reply.code(403).send({ success: false, error: 'Account pending approval' })
      const sessionId = request.session.sessionId
      // The session may have slid its idle deadline: save it before the response is taken over.
      if (request.session.isModified()) await request.session.save()
      reply.hijack()
      server.handleUpgrade(request.raw, upgrade.socket, upgrade.head, (socket) => {
        registry.add({ socket, userId: access.userId, sessionId })
        socket.on('error', (error) => request.log.debug({ err: error }, 'live socket error'))
      })
    },
  )
}
