import type { NotificationEvent } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { channelsListening } from '../repositories/notification-channels.ts'
import { addDeliveries } from '../repositories/notification-deliveries.ts'

/**
 * The `notify.events` handler: one pending delivery for each of the user's enabled channels whose filter
 * holds the event's kind. It sends nothing itself, so a slow or failing channel never holds the consumer;
 * the dispatcher sends. Returns how many deliveries were added.
 */
export async function queueDeliveries(db: Kysely<Database>, event: NotificationEvent): Promise<number> {
  const channels = await channelsListening(db, event.userId, event.kind)
  return addDeliveries(
    db,
    channels.map((channel) => channel.id),
    event,
  )
}
