import { Env, Type, type Static } from '@signals/config'

/** Everything the admin service reads from its environment. */
export const ConfigSchema = Type.Object({
  NODE_ENV: Env.NODE_ENV,
  LOG_LEVEL: Env.LOG_LEVEL,
  /** Its own listen address only: HOST=0.0.0.0 meant for the gateway must not expose it (issue 15). */
  ADMIN_HOST: Env.ADMIN_HOST,
  ADMIN_PORT: Env.ADMIN_PORT,
  DATABASE_URL: Env.DATABASE_URL,
  /** User status and the session index live here: approvals and bans apply at the gateway at once. */
  REDIS_URL: Env.REDIS_URL,
  INTERNAL_AUTH_SECRET: Env.INTERNAL_AUTH_SECRET,
  /** Administrators by configuration: they cannot be revoked or banned from the admin API. */
  ADMIN_EMAIL: Env.ADMIN_EMAIL,
  /** Where a replayed webhook goes, with the secret ingest expects (it was redacted from the stored text). */
  INGEST_URL: Env.INGEST_URL,
  /** The gateway's external URL: an operator source's webhook URL is shown under it. */
  PUBLIC_URL: Env.PUBLIC_URL,
  WEBHOOK_SECRET: Env.WEBHOOK_SECRET,
  /** Intake-log entries older than this are deleted (docs/operations.md). */
  INTAKE_LOG_RETENTION_DAYS: Type.Integer({ minimum: 1, default: 30, description: 'days an intake-log entry is kept' }),
  INTAKE_LOG_PRUNE_INTERVAL_SECONDS: Type.Integer({ minimum: 1, default: 3600, description: 'how often the intake log is pruned' }),
})

export type Config = Static<typeof ConfigSchema>
