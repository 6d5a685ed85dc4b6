import { adminEmailSet } from '@signals/config'
import { dbPlugin } from '@signals/db'
import { createServiceApp, internalIdentityPlugin, openapiPlugin } from '@signals/http-kit'
import { redisPlugin } from '@signals/sessions'
import type { Config } from './config.ts'
import { requireAdmin } from './routes/require-admin.ts'
import { userRoutes } from './routes/users.ts'
import { banRoutes } from './routes/bans.ts'
import { auditRoutes } from './routes/audit.ts'
import { intakeRoutes } from './routes/intake.ts'
import { myIntakeRoutes } from './routes/my-intake.ts'
import { intakeRetentionPlugin } from './retention/intake-retention.ts'
import { newsEventRoutes } from './routes/news-events.ts'
import { operatorSourceRoutes } from './routes/signal-sources.ts'

/** Builds the admin service. Tests drive it with `app.inject`; `main.ts` listens. */
export async function buildApp(config: Config, options: { loggerStream?: NodeJS.WritableStream } = {}) {
  const app = await createServiceApp({ service: 'admin', logLevel: config.LOG_LEVEL, loggerStream: options.loggerStream, logRedaction: { paths: ['config.SESSION_SECRET', 'config.INTERNAL_AUTH_SECRET'] } })
  await app.register(dbPlugin, { connectionString: config.DATABASE_URL })
  await app.register(redisPlugin, { url: config.REDIS_URL })
  await app.register(intakeRetentionPlugin, { retentionDays: config.INTAKE_LOG_RETENTION_DAYS, intervalSeconds: config.INTAKE_LOG_PRUNE_INTERVAL_SECONDS })
  await app.register(internalIdentityPlugin, { secret: config.INTERNAL_AUTH_SECRET, audience: 'admin' })
  await app.register(openapiPlugin, { title: 'Signals admin API', description: 'Users, approval, bans and the audit log. Administrators only.' })
  // A trader's own intake (issue 22): signed in and approved (the gateway checks), not an administrator.
  await app.register(myIntakeRoutes)
  const adminEmails = adminEmailSet(config.ADMIN_EMAIL)
  await app.register(async (scope) => {
    scope.addHook('onRequest', requireAdmin(adminEmails))
    await scope.register(userRoutes, { adminEmails })
    await scope.register(banRoutes, { adminEmails })
    await scope.register(auditRoutes)
    await scope.register(newsEventRoutes)
    await scope.register(operatorSourceRoutes, { publicUrl: config.PUBLIC_URL })
    await scope.register(intakeRoutes, { ingest: { ingestUrl: config.INGEST_URL, webhookSecret: config.WEBHOOK_SECRET } })
  })
  return app
}
