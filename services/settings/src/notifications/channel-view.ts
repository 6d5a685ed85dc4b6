import type { NotificationChannelRow, NotificationDeliveryRow } from '@signals/db'
import type { NotificationEventKind } from '@signals/contracts'
import type { ChannelView } from '../schemas/notification-channels.ts'
import type { ShownSettings } from './channel-fields.ts'

const iso = (date: Date | null) => (date === null ? null : date.toISOString())

/** What a response shows of a channel: never its secret (only whether one is stored). */
export function channelViewOf(row: NotificationChannelRow, secretSet: boolean): ChannelView {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    enabled: row.enabled,
    events: row.events as NotificationEventKind[],
    settings: row.settings as ShownSettings,
    secretSet,
    lastSentAt: iso(row.last_sent_at),
    lastFailedAt: iso(row.last_failed_at),
    lastError: row.last_error,
    updatedAt: row.updated_at.toISOString(),
  }
}

export function deliveryViewOf(row: NotificationDeliveryRow) {
  return {
    id: row.id,
    channelId: row.channel_id,
    kind: row.kind as NotificationEventKind,
    title: row.title,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    occurredAt: row.occurred_at.toISOString(),
    sentAt: iso(row.sent_at),
  }
}
