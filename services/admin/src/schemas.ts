import Type, { type Static } from 'typebox'
import type { AdminAuditEntry, BannedEmail, User } from '@signals/db'
import { UserProfile } from '@signals/contracts'

export const Paging = {
  page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
}

export const UserView = Type.Object({
  ...UserProfile.properties,
  banned: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
})
export type UserView = Static<typeof UserView>

export function userView(user: User, banned: boolean): UserView {
  return {
    userId: user.user_id,
    email: user.email,
    name: user.name,
    picture: user.picture,
    approved: user.approved,
    role: user.role,
    banned,
    createdAt: user.created_at.toISOString(),
    updatedAt: user.updated_at.toISOString(),
  }
}

export const BanView = Type.Object({
  email: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
})
export type BanView = Static<typeof BanView>

export const banView = (ban: BannedEmail): BanView => ({ email: ban.email, reason: ban.reason, createdAt: ban.created_at.toISOString() })

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

/** An e-mail as a ban stores it: trimmed, lower-cased (bans match case-insensitively). */
export const Email = Type.String({ minLength: 3, maxLength: 255, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' })
export const normalizeEmail = (email: string) => email.trim().toLowerCase()
