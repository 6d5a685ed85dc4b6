import Type, { type Static } from 'typebox'
import { LiteralUnion } from './literal-union.ts'
import { userIdToken } from './subjects.ts'

/**
 * A change notice for one user's pages (core NATS, not JetStream: a lost notice costs nothing, since the
 * page refetches through the API on every notice and on every reconnect). It says only what changed,
 * never the data: the page reads that through /api with the user's own identity.
 */
export const UserActivityV1 = Type.Object(
  {
    version: Type.Literal(1),
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    kind: LiteralUnion(['alert', 'trade', 'status'] as const, { description: 'alert record, trade, or live-trading status' }),
    id: Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: 'the record or trade id; null for status' }),
    at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
)
export type UserActivity = Static<typeof UserActivityV1>

/** `activity.user.<base64url user id>`, before the namespace prefix (subject tokens allow no dots). */
export const userActivitySubject = (userId: string): string => `activity.user.${userIdToken(userId)}`
/** Every user's notices (the gateway's one subscription). */
export const ALL_USER_ACTIVITY = 'activity.user.*'
