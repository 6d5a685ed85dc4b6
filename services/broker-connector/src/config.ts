import { Env, Type, type Static } from '@signals/config'

/** Everything the broker-connector service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  HOST: Env.HOST,
  BROKER_CONNECTOR_PORT: Env.BROKER_CONNECTOR_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  NATS_URL: Env.NATS_URL,
  BUS_NAMESPACE: Env.BUS_NAMESPACE,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  ALERT_ROUTING: Env.ALERT_ROUTING,
})

export type Config = Static<typeof ConfigSchema>
