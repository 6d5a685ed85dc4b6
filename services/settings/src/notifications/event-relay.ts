import type { FastifyBaseLogger } from 'fastify'
import { NotificationEventV1, Subjects, contract, NotificationEventKind, type NotificationEvent } from '@signals/contracts'
import type { Bus } from '@signals/bus'
import type { Database, Kysely } from '@signals/db'
import { lockUnpublishedEvents, markEventsPublished, type PendingNotificationEvent } from '../repositories/notification-events.ts'
import { describeEvent } from './event-text.ts'

const eventContract = contract(NotificationEventV1)
const kindContract = contract(NotificationEventKind)
const BATCH = 100

/** The bus message of an outbox row (null for a kind this build does not know: left unpublished). */
function busEventOf(row: PendingNotificationEvent): NotificationEvent | null {
  if (!kindContract.check(row.kind)) return null
  const { title, text } = describeEvent(row.kind, (row.details ?? {}) as Record<string, unknown>)
  return { version: 1, eventId: row.event_key, userId: row.user_id, kind: row.kind, title: title.slice(0, 200), text: text.slice(0, 1800), occurredAt: row.occurred_at.toISOString() }
}

/**
 * One pass of the outbox relay: publishes the events the triggers recorded, each under its event id (a
 * resend after a crash is dropped by the stream), and marks them. Returns how many were published.
 */
export async function relayNotificationEvents(db: Kysely<Database>, bus: Bus, logger: FastifyBaseLogger): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await lockUnpublishedEvents(trx, BATCH)
    const published: number[] = []
    for (const row of rows) {
      const event = busEventOf(row)
      if (event === null) {
        logger.warn({ id: row.id, kind: row.kind }, 'notification event of an unknown kind left unpublished')
        continue
      }
      await bus.publish(Subjects.notificationEvent, eventContract, event, { messageId: event.eventId })
      published.push(row.id)
    }
    await markEventsPublished(trx, published)
    return published.length
  })
}
