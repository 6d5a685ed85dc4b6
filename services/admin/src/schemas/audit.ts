import Type, { type Static } from 'typebox'
import { LiteralUnion } from '@signals/contracts'
import { NextCursor, PageQuery } from '@signals/http-kit'

export const AuditAction = LiteralUnion(['approve', 'revoke', 'ban', 'unban', 'replay', 'news_event_add', 'news_event_delete', 'signal_source_create', 'signal_source_rotate', 'signal_source_delete'] as const)
export type AuditAction = Static<typeof AuditAction>

export const AuditView = Type.Object({
  id: Type.Integer(),
  actorUserId: Type.String(),
  /** The acting administrator's e-mail (null if their user row is gone). */
  actorEmail: Type.Union([Type.String(), Type.Null()]),
  action: Type.String(),
  target: Type.String(),
  /** The e-mail the action was about: the user's for approve/revoke, the target itself for ban/unban; null for replay. */
  targetEmail: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
})
export type AuditView = Static<typeof AuditView>

/** Newest entry first (by entry id). */
export const AuditQuery = Type.Object({
  action: Type.Optional(AuditAction),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "the acting administrator's user id, or their e-mail (case-insensitive)" })),
  ...PageQuery,
})

export const AuditPage = Type.Object({ success: Type.Literal(true), entries: Type.Array(AuditView), nextCursor: NextCursor })
