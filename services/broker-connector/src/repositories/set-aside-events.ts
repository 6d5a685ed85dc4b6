import { sql, type Database, type Kysely } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

export interface SetAsideEvent {
  userId: string
  scope: BrokerScope
  entityType: 'fill'
  entityId: number
  orderId: number | null
  event: object
  reason: string
}

/** Keeps an event the connector could not apply, with the reason; a replay of it counts once more. */
export async function setAsideEvent(db: Kysely<Database>, aside: SetAsideEvent): Promise<void> {
  const { broker, environment, accountId } = aside.scope
  await sql`
    INSERT INTO broker_events_set_aside (user_id, broker, environment, broker_account_id, entity_type, entity_id, order_id, event, reason)
    VALUES (${aside.userId}, ${broker}, ${environment}, ${accountId}, ${aside.entityType}, ${aside.entityId}, ${aside.orderId},
            ${JSON.stringify(aside.event)}::jsonb, ${aside.reason.slice(0, 1_000)})
    ON CONFLICT (user_id, broker, environment, broker_account_id, entity_type, entity_id)
    DO UPDATE SET reason = EXCLUDED.reason, last_seen_at = now(), times = broker_events_set_aside.times + 1`.execute(db)
}
