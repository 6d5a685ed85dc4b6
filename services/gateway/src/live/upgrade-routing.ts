import { ServerResponse, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'

/** What the upgrade event gave us, kept on the raw request until a route takes the socket over. */
interface PendingUpgrade {
  socket: Duplex
  head: Buffer
}

const pending = new WeakMap<IncomingMessage, PendingUpgrade>()

/**
 * Sends HTTP upgrade requests through Fastify's router like any other request, so hooks (session, security
 * headers) and the route's own checks run first; a route refusing answers plain HTTP on the socket and the
 * browser sees a failed handshake. (The same trick @fastify/websocket uses, without its extras.)
 */
export function routeUpgrades(app: FastifyInstance): void {
  app.server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    pending.set(raw, { socket, head })
    const response = new ServerResponse(raw)
    // A refused upgrade is a plain HTTP answer on a socket Node no longer manages: end it once sent.
    response.once('finish', () => socket.end())
    try {
      response.assignSocket(socket as never)
      app.routing(raw, response)
    } catch (error) {
      app.log.warn({ err: error }, 'upgrade request could not be routed')
      socket.destroy()
    }
  })
}

/** The upgrade a request arrived with, or null for a plain GET. */
export function upgradeOf(request: FastifyRequest): PendingUpgrade | null {
  return pending.get(request.raw) ?? null
}
