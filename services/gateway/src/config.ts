import { Env, Type, type Static } from '@signals/config'

/** Everything the gateway service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  GATEWAY_PORT: Env.GATEWAY_PORT,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
})

export type Config = Static<typeof ConfigSchema>
