import { Type } from '@signals/config'

/** Cookie that carries the signed session id; the same name in auth (writer) and gateway (reader). */
export const SESSION_COOKIE = 'signals.sid'
/** Redis key prefix of session bodies (connect-redis): `sess:<id>`. */
export const SESSION_KEY_PREFIX = 'sess:'

/**
 * Session variables, declared once so auth and gateway cannot disagree. Compose them into a service's
 * configuration schema next to `Env.SESSION_SECRET` and `Env.PUBLIC_URL`.
 */
export const SessionEnv = {
  /** A session unused for this long ends (sliding; the gateway extends it at most once a minute). */
  SESSION_IDLE_MINUTES: Type.Integer({ minimum: 5, maximum: 7 * 24 * 60, default: 120, description: 'idle session time-out, minutes' }),
  /** A session ends this long after sign-in, however active. */
  SESSION_ABSOLUTE_HOURS: Type.Integer({ minimum: 1, maximum: 90 * 24, default: 7 * 24, description: 'absolute session lifetime, hours' }),
} as const

/** The settings a service passes to sessionSettings (its loaded config has them, from SessionEnv). */
export interface SessionConfig {
  SESSION_SECRET: string
  PUBLIC_URL: string
  SESSION_IDLE_MINUTES: number
  SESSION_ABSOLUTE_HOURS: number
}

/** Everything about sessions that auth and gateway must agree on, derived from configuration. */
export interface SessionSettings {
  secret: string
  /** Cookie gets `Secure` when the public URL is https (DESIGN decision 14). */
  secure: boolean
  /** Origin of PUBLIC_URL (`https://example.com`), the only origin allowed to change state. */
  publicOrigin: string
  idleMs: number
  absoluteMs: number
  /** How stale `lastSeenAt` may get before a request slides the idle deadline (and rewrites the session). */
  touchAfterMs: number
}

export function sessionSettings(config: SessionConfig): SessionSettings {
  const publicUrl = new URL(config.PUBLIC_URL)
  return {
    secret: config.SESSION_SECRET,
    secure: publicUrl.protocol === 'https:',
    publicOrigin: publicUrl.origin,
    idleMs: config.SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000,
    touchAfterMs: 60_000,
  }
}
