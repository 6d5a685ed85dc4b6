import Type, { type Static } from 'typebox'
import { LiteralUnion } from './literal-union.ts'

/**
 * What a trader can be told about, one filter name each (docs/decisions/notifications.md). `kill_switch`
 * is named ahead of its producer: whoever stops trading with the kill switch publishes a
 * NotificationEventV1 of that kind on `notify.events`, and the notifier needs no change.
 */
export const NOTIFICATION_EVENT_KINDS = [
  'order_refused',
  'order_failed',
  'fill',
  'trade_closed',
  'daily_loss',
  'broker_login_failed',
  'feed_down',
  'kill_switch',
] as const
export const NotificationEventKind = LiteralUnion(NOTIFICATION_EVENT_KINDS)
export type NotificationEventKind = Static<typeof NotificationEventKind>

/**
 * `notify.events` (stream NOTIFICATIONS): something happened that one trader may want to hear about on
 * their channels. Publish it with `eventId` as the bus message id, so a resend is dropped by the stream;
 * the notifier also keeps one delivery per channel and event id.
 */
export const NotificationEventV1 = Type.Object(
  {
    version: Type.Literal(1),
    /** Unique per happening (`order_refused:alert:42`), stable across resends. */
    eventId: Type.String({ minLength: 1, maxLength: 128 }),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    kind: NotificationEventKind,
    /** One line: the e-mail subject, the first line elsewhere. */
    title: Type.String({ minLength: 1, maxLength: 200 }),
    /** The message, plain text, no secret. */
    text: Type.String({ maxLength: 1800 }),
    occurredAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type NotificationEvent = Static<typeof NotificationEventV1>
