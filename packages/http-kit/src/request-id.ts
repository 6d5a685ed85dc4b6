import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** The header a request's id travels in: from a client or load balancer, from the gateway to a service, and back in the answer. */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * A request id a caller may choose: 8 to 128 letters, digits and `._:-` (a UUID, nginx's `$request_id`, a
 * W3C trace id all fit). Anything else (empty, short enough to repeat, spaces, a log-forging newline) is
 * replaced by one of ours.
 */
const ACCEPTED = /^[A-Za-z0-9._:-]{8,128}$/

/**
 * Fastify's `genReqId` for every service: the incoming `x-request-id` when it is acceptable (the gateway
 * sets it on every request it forwards, so a request keeps one id across services), else a random UUID.
 * Fastify's own ids (`req-1`, `req-2`, ...) restart in every process and repeat across services.
 */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER]
  return typeof sent === 'string' && ACCEPTED.test(sent) ? sent : randomUUID()
}
