import { Env, Type, type Static } from '@signals/config'

/** Everything the auth service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  AUTH_PORT: Env.AUTH_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
})

export type Config = Static<typeof ConfigSchema>
