import type { FastifyInstance } from 'fastify'
import { CLIENT_ADDRESS_HEADER, verifyClientAddress } from '@signals/http-kit'

declare module 'fastify' {
  interface FastifyRequest {
    /** Who sent the webhook: the address the gateway signed, else the peer (after INGEST_TRUSTED_PROXY). */
    clientAddress: string
  }
}

/**
 * Sets `request.clientAddress` first thing: rate limit, allow-list and intake log all count the sender.
 * A webhook through the gateway arrives from the gateway's address; the gateway's signed header names the
 * real one. An unsigned, forged or expired header is ignored (the peer is counted instead).
 */
export function clientAddressHook(app: FastifyInstance, internalAuthSecret: string): void {
  app.decorateRequest('clientAddress', '')
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers[CLIENT_ADDRESS_HEADER]
    request.clientAddress = (header === undefined ? null : verifyClientAddress(header, internalAuthSecret)) ?? request.ip
    done()
  })
}
