import { Env, Type, type Static } from '@signals/config'

/** Everything the ingest service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  INGEST_PORT: Env.INGEST_PORT,
  NATS_URL: Env.NATS_URL,
  BUS_NAMESPACE: Env.BUS_NAMESPACE,
})

export type Config = Static<typeof ConfigSchema>
