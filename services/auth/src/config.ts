import { Env, Type, type Static } from '@signals/config'
import { SessionEnv } from '@signals/sessions'

/** Everything the auth service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  AUTH_PORT: Env.AUTH_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  REDIS_URL: Env.REDIS_URL,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  /** The callback is PUBLIC_URL + /auth/google/callback; the cookie is Secure when it is https. */
  PUBLIC_URL: Env.PUBLIC_URL,
  OIDC_ISSUER: Env.OIDC_ISSUER,
  OIDC_CLIENT_ID: Env.OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET: Env.OIDC_CLIENT_SECRET,
  ADMIN_EMAIL: Env.ADMIN_EMAIL,
  SESSION_SECRET: Env.SESSION_SECRET,
  SESSION_IDLE_MINUTES: SessionEnv.SESSION_IDLE_MINUTES,
  SESSION_ABSOLUTE_HOURS: SessionEnv.SESSION_ABSOLUTE_HOURS,
})

export type Config = Static<typeof ConfigSchema>
