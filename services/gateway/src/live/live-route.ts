import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { SessionSettings } from '@signals/sessions'
import { resolveAccess } from '../access/resolve-access.ts'
import type { SocketRegistry } from './socket-registry.ts'
import { LiveRefusals } from '../schemas/live.ts'

export interface LiveRouteOptions {
  settings: SessionSettings
  registry: SocketRegistry
}

/** Whose socket an upgrade that passed the checks becomes (set by the checks, read by the socket handler). */
const admitted = new WeakMap<FastifyRequest, { userId: string; sessionId: string }>()

/**
 * `GET /api/live` with `Upgrade: websocket` (@fastify/websocket): the signed-in, approved user's socket for
 * change notices. The session cookie authenticates the upgrade, with the same session, ban and approval
 * checks as /api, run before the handshake so a refusal is a plain HTTP answer; the Origin must be our own
 * (browsers always send it on a WebSocket, and the cookie rides along, so a foreign page could otherwise
 * open a socket as the user). A plain GET is told to upgrade (426).
 */
export const liveRoute: FastifyPluginAsyncTypebox<LiveRouteOptions> = async (app, options) => {
  const { settings, registry } = options

  const checkUpgrade = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.ws) return
    if (request.headers.origin !== settings.publicOrigin) return reply.code(403).send({ success: false, error: 'Cross-origin socket refused' })
    const access = await resolveAccess(request, reply, app.redis, settings)
    if (access.kind === 'anonymous') return reply.code(401).send({ success: false, error: 'Authentication required' })
    if (access.kind === 'banned') return reply.code(403).send({ success: false, error: 'Account banned', reason: access.reason })
    if (access.kind === 'pending') return reply.code(403).send({ success: false, error: 'Account pending approval' })
    // The session may have slid its idle deadline: save it before the handshake takes the connection over.
    if (request.session.isModified()) await request.session.save()
    admitted.set(request, { userId: access.userId, sessionId: request.session.sessionId })
  }

  app.route({
    method: 'GET',
    url: '/api/live',
    schema: { hide: true, response: LiveRefusals },
    preHandler: checkUpgrade,
    handler: async (_request, reply) =>
      reply.code(426).header('upgrade', 'websocket').send({ success: false, error: 'This route takes a WebSocket upgrade' }),
    wsHandler: (socket, request) => {
      const who = admitted.get(request)
      // Unreachable: the checks either refused the upgrade or admitted it.
      if (who === undefined) return socket.close(1008, 'not admitted')
      registry.add({ socket, ...who })
    },
  })
}
