/**
 * Authentication over REST. Sources: partner.tradovate.com .../authentication/access-token-request and
 * .../renew-access-token; arlenner/api-doc-20-dev entities_pages/responses/accessTokenResponse.md.
 * Errors come back as HTTP 200 with `errorText`, so every body is checked.
 */

/** Body of `POST /auth/accesstokenrequest`. */
export interface AccessTokenRequest {
  name: string
  password: string
  appId?: string | null
  appVersion?: string | null
  cid?: string | number | null
  sec?: string | null
  deviceId?: string | null
  /** Added on the resend after a penalty ticket. */
  'p-ticket'?: string
}

/** A successful answer of `auth/accesstokenrequest` and `auth/renewaccesstoken`. */
export interface AccessTokenResponse {
  accessToken: string
  mdAccessToken?: string
  /** ISO time the token stops working; renew before it. */
  expirationTime: string
  userStatus?: string
  userId: number
  name?: string
  hasLive?: boolean
}

/** A refusal: HTTP 200 with `errorText`. */
export interface ErrorTextResponse {
  errorText: string
}

export const ACCESS_TOKEN_PATH = 'auth/accesstokenrequest'
export const RENEW_TOKEN_PATH = 'auth/renewaccesstoken'

export function isAccessTokenResponse(value: unknown): value is AccessTokenResponse {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return typeof record.accessToken === 'string' && record.accessToken !== '' && typeof record.expirationTime === 'string'
}

export function errorTextOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null
  const text = (value as Record<string, unknown>).errorText
  return typeof text === 'string' && text !== '' ? text : null
}
