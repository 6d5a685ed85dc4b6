import Type, { type Static } from 'typebox'
import type { User } from '@signals/db'
import { UserProfile } from '@signals/contracts'
import { NextCursor, TimeKeyPageQuery } from '@signals/http-kit'

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

/** Newest sign-up first (then by user id); the cursor is the last row's sign-up time and id. */
export const UsersQuery = Type.Object({
  status: Type.Union([Type.Literal('all'), Type.Literal('pending'), Type.Literal('approved')], { default: 'all' }),
  search: Type.Optional(Type.String({ maxLength: 255 })),
  ...TimeKeyPageQuery,
})

export const UsersPage = Type.Object({ success: Type.Literal(true), users: Type.Array(UserView), nextCursor: NextCursor })

export const UserParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 255 }) })

export const UserResult = Type.Object({ success: Type.Literal(true), user: UserView })

/** The optional reason of an approval or a revocation (recorded in the audit log). */
export const ApprovalBody = Type.Optional(
  Type.Union([Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false }), Type.Null()]),
)
