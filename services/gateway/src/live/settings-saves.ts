import type { FastifyInstance } from 'fastify'
import { userActivitySubject } from '@signals/contracts'
import { publishNotice } from '@signals/bus'
import { noticeContract, statusNotice } from './notices.ts'

/**
 * The /api prefixes whose successful writes change what the live-trading indicator shows (/api/accounts: the
 * primary's switches are the live-trading setting, and a login linked to it is its credentials).
 */
const STATUS_WRITES = ['/api/trading-settings', '/api/broker-credentials', '/api/risk-engine', '/api/accounts']
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * A settings save through this gateway announces a status change to the user's pages (every tab, every
 * gateway instance: it goes through the bus). The settings service itself publishes nothing on a save.
 */
export function announceSettingsSaves(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const identity = request.approvedIdentity
    if (identity && WRITE_METHODS.has(request.method) && reply.statusCode < 300 && STATUS_WRITES.some((prefix) => request.url.startsWith(prefix))) {
      publishNotice(app.bus, userActivitySubject(identity.userId), noticeContract, statusNotice(identity.userId))
    }
    done()
  })
}
