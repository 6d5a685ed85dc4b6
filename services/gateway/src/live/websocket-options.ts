import type { FastifyInstance } from 'fastify'
import type { WebsocketPluginOptions } from '@fastify/websocket'
import { CloseCode } from './live-codes.ts'

/**
 * @fastify/websocket as the gateway runs it: browser frames are tiny or nothing (at most 1 KiB), shutdown
 * tells each page to come back (1001, the page reconnects), and a socket's error (a browser vanishing
 * mid-frame) is routine, not an application error.
 */
export const websocketOptions: WebsocketPluginOptions = {
  options: { maxPayload: 1024 },
  preClose(this: FastifyInstance, done: () => void) {
    for (const socket of this.websocketServer.clients) socket.close(CloseCode.goingAway, 'server shutting down')
    done()
  },
  errorHandler(error, socket, request) {
    request.log.debug({ err: error }, 'live socket error')
    socket.terminate()
  },
}
