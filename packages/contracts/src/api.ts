import Type, { type Static } from 'typebox'
import { Role } from './words.ts'

/** Every JSON error on /api and /webhook: `{ success: false, error }`. */
export const ErrorBody = Type.Object(
  { success: Type.Literal(false), error: Type.String() },
  { additionalProperties: true, $id: 'ErrorBody' },
)
export type ErrorBody = Static<typeof ErrorBody>

/** The refusal of a banned user's request (gateway, auth's /auth/me): the administrator's reason, if any. */
export const BannedBody = Type.Object({ success: Type.Literal(false), error: Type.Literal('Account banned'), reason: Type.Union([Type.String(), Type.Null()]) })
export type BannedBody = Static<typeof BannedBody>

/** The identity the gateway passes to services in the signed internal header. */
export const InternalIdentity = Type.Object(
  {
    userId: Type.String({ minLength: 1, maxLength: 255 }),
    email: Type.String({ maxLength: 255 }),
    role: Role,
    approved: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type InternalIdentity = Static<typeof InternalIdentity>

/** live_trading setting value (spec: enabled, autoPlaceOrders; both default false). */
export const LiveTradingValue = Type.Object(
  {
    enabled: Type.Boolean(),
    autoPlaceOrders: Type.Boolean(),
  },
  { additionalProperties: false },
)
export type LiveTradingValue = Static<typeof LiveTradingValue>

/** A user as the API shows it (auth's `/auth/me`, admin's user list): the spec's User fields, no secrets. */
export const UserProfile = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  picture: Type.Union([Type.String(), Type.Null()]),
  approved: Type.Boolean(),
  role: Role,
})
export type UserProfile = Static<typeof UserProfile>
