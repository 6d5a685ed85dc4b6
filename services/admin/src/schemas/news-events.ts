import Type, { type Static } from 'typebox'
import type { NewsEventRow } from '@signals/db'

/** Minutes of blackout on either side of an event: up to a day (the connector looks a day either way). */
const Minutes = (description: string) => Type.Integer({ minimum: 0, maximum: 1440, description })

export const NewsEventView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  at: Type.String({ format: 'date-time', description: 'when the news comes out' }),
  minutesBefore: Minutes('entries are refused from this many minutes before'),
  minutesAfter: Minutes('to this many minutes after'),
  createdAt: Type.String({ format: 'date-time' }),
})
export type NewsEventView = Static<typeof NewsEventView>

export const newsEventView = (event: NewsEventRow): NewsEventView => ({
  id: Number(event.id),
  name: event.name,
  at: event.at.toISOString(),
  minutesBefore: event.minutes_before,
  minutesAfter: event.minutes_after,
  createdAt: event.created_at.toISOString(),
})

export const NewsEventBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'what the news is (shown to traders in the refusal)' }),
    at: Type.String({ format: 'date-time', description: 'when the news comes out (ISO 8601 with a time zone)' }),
    minutesBefore: Minutes('entries are refused from this many minutes before'),
    minutesAfter: Minutes('to this many minutes after'),
  },
  { additionalProperties: false },
)

export const NewsEventsQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date-time', description: 'events at or after this time (default: a day ago)' })),
    limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  },
  { additionalProperties: false },
)

export const NewsEventsPage = Type.Object({ success: Type.Literal(true), events: Type.Array(NewsEventView) })
export const NewsEventResult = Type.Object({ success: Type.Literal(true), event: NewsEventView })
export const NewsEventParams = Type.Object({ id: Type.Integer({ minimum: 1 }) })
export const DeletedNewsEvent = Type.Object({ success: Type.Literal(true), id: Type.Integer() })
