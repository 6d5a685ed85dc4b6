import Type, { type Static } from 'typebox'
import type { BannedEmail } from '@signals/db'
import { NextCursor, PageQuery } from '@signals/http-kit'

export const BanView = Type.Object({
  email: Type.String(),
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
})
export type BanView = Static<typeof BanView>

export const banView = (ban: BannedEmail): BanView => ({ email: ban.email, reason: ban.reason, createdAt: ban.created_at.toISOString() })

/** An e-mail as a ban stores it: trimmed, lower-cased (bans match case-insensitively). */
const Email = Type.String({ minLength: 3, maxLength: 255, pattern: '^\\s*[^\\s@]+@[^\\s@]+\\s*$' })
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** Newest ban first (by ban id). */
export const BansQuery = Type.Object(PageQuery)

export const BansPage = Type.Object({ success: Type.Literal(true), bans: Type.Array(BanView), nextCursor: NextCursor })

export const BanBody = Type.Object({ email: Email, reason: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])) }, { additionalProperties: false })

export const BanResult = Type.Object({ success: Type.Literal(true), ban: BanView, sessionsEnded: Type.Integer() })

export const BanParams = Type.Object({ email: Email })

export const LiftedBan = Type.Object({ success: Type.Literal(true), email: Type.String() })
