import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import pg from 'pg'
import { UserActivityV1, contract, userActivitySubject } from '@signals/contracts'
import { publishNotice } from '@signals/bus'
import { noticeOf } from './activity-notice.ts'

export interface ActivityRelayOptions {
  connectionString: string
  /** Wait before listening again after the database connection dropped. */
  retryMs?: number
}

const noticeContract = contract(UserActivityV1)

const USER_ACTIVITY_CHANNEL = 'user_activity'

/**
 * Relays the database's `user_activity` notifications (a trigger on alerts and trades, sent at commit) to
 * the bus as core-NATS `activity.user.<base64url user id>` notices, for the gateway's live pages. Core NATS
 * on purpose: a notice only says "refetch", so one lost to a restart costs nothing (the page refetches on
 * reconnect too). Every connector instance relays what it hears: two instances send a notice twice, which
 * costs the page one extra refetch.
 */
export const activityRelayPlugin = fp(
  async (app: FastifyInstance, options: ActivityRelayOptions) => {
    let client: pg.Client | null = null
    let closing = false
    let retry: NodeJS.Timeout | undefined

    const relay = (message: pg.Notification) => {
      const notice = noticeOf(message.payload, new Date())
      if (notice === null) return app.log.warn({ payload: message.payload }, 'user_activity notification not understood')
      publishNotice(app.bus, userActivitySubject(notice.userId), noticeContract, notice)
    }
    const listenAgainLater = () => {
      client = null
      if (!closing) retry = setTimeout(() => void listen(), options.retryMs ?? 1_000)
    }
    const listen = async () => {
      const next = new pg.Client({ connectionString: options.connectionString, application_name: 'broker-connector activity relay' })
      next.on('notification', relay)
      next.on('error', (error) => {
        app.log.warn({ err: error }, 'activity relay: database connection lost; listening again shortly')
        void next.end().catch(() => undefined)
        listenAgainLater()
      })
      try {
        await next.connect()
        await next.query(`LISTEN ${USER_ACTIVITY_CHANNEL}`)
        client = next
      } catch (error) {
        app.log.warn({ err: error }, 'activity relay: cannot listen; trying again shortly')
        await next.end().catch(() => undefined)
        listenAgainLater()
      }
    }

    app.addHook('onReady', listen)
    app.addHook('onClose', async () => {
      closing = true
      clearTimeout(retry)
      await client?.end().catch(() => undefined)
    })
  },
  { name: 'activity-relay', dependencies: ['bus'] },
)
