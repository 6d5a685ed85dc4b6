import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { NotificationEventV1, Streams, Subjects, contract } from '@signals/contracts'
import type { ConsumerHandle } from '@signals/bus'
import type { CredentialsCipher } from '@signals/secrets'
import { relayNotificationEvents } from './event-relay.ts'
import { queueDeliveries } from './notifier.ts'
import { dispatchDue, type DispatchOptions } from './dispatcher.ts'
import { startPeriodicPass, type PeriodicPass } from './periodic-pass.ts'
import { watchFeedStatus, type FeedStatusWatch } from './feed-status-watch.ts'

export interface NotificationsOptions {
  cipher: CredentialsCipher
  dispatch: DispatchOptions
  relayIntervalMs: number
  dispatchIntervalMs: number
}

/** Every settings instance shares the work under this name. */
const NOTIFIER_DURABLE = 'settings-notifier'
const eventContract = contract(NotificationEventV1)

/**
 * The notifier (docs/decisions/notifications.md): the outbox relay puts the database's events on
 * `notify.events`; the durable consumer turns each into deliveries for the user's channels; the
 * dispatcher sends them, retried with backoff. The feed status watch adds the feed notices. Started on ready, stopped on close before the database and
 * the bus (close hooks run in reverse registration order).
 */
export const notificationsPlugin = fp(
  async (app: FastifyInstance, options: NotificationsOptions) => {
    let relay: PeriodicPass | null = null
    let dispatcher: PeriodicPass | null = null
    let consumer: ConsumerHandle | null = null
    let feeds: FeedStatusWatch | null = null
    app.addHook('onReady', async () => {
      relay = startPeriodicPass(options.relayIntervalMs, () => relayNotificationEvents(app.db, app.bus, app.log), (error) =>
        app.log.warn({ err: error }, 'notification relay pass failed; trying again next pass'),
      )
      dispatcher = startPeriodicPass(options.dispatchIntervalMs, () => dispatchDue(app.db, options.cipher, app.log, options.dispatch), (error) =>
        app.log.warn({ err: error }, 'notification dispatch pass failed; trying again next pass'),
      )
      consumer = await app.bus.consume({
        stream: Streams.notifications.name,
        subject: Subjects.notificationEvent,
        durable: NOTIFIER_DURABLE,
        contract: eventContract,
        concurrency: 4,
        handler: async (event) => {
          if ((await queueDeliveries(app.db, event)) > 0) dispatcher?.poke()
        },
      })
      feeds = await watchFeedStatus(app.bus, app.log)
    })
    app.addHook('onClose', async () => {
      await feeds?.stop()
      await consumer?.stop()
      await Promise.all([relay?.stop(), dispatcher?.stop()])
    })
  },
  { name: 'notifications', dependencies: ['db', 'bus'] },
)
