import Type, { type Static } from 'typebox'
import type { AdminAuditEntry } from '@signals/db'
import { LiteralUnion } from '@signals/contracts'
import { NextCursor, PageQuery } from '@signals/http-kit'

export const AuditAction = LiteralUnion(['approve', 'revoke', 'ban', 'unban', 'replay'] as const)
export type AuditAction = Static<typeof AuditAction>

export const AuditView = Type.Object({
  id: Type.Integer(),
  actorUserId: Type.String(),
  action: Type.String(),
  target: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
})
export type AuditView = Static<typeof AuditView>

export const auditView = (entry: AdminAuditEntry): AuditView => ({
  id: entry.id,
  actorUserId: entry.actor_user_id,
  action: entry.action,
  target: entry.target,
  reason: entry.reason,
  createdAt: entry.created_at.toISOString(),
})

/** Newest entry first (by entry id). */
export const AuditQuery = Type.Object({
  action: Type.Optional(AuditAction),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "the acting administrator's user id" })),
  ...PageQuery,
})

export const AuditPage = Type.Object({ success: Type.Literal(true), entries: Type.Array(AuditView), nextCursor: NextCursor })
