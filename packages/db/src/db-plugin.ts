import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type {} from '@signals/http-kit'
import type { Kysely } from 'kysely'
import { createDb, isDatabaseReachable } from './create-db.ts'
import type { Database } from './schema.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>
  }
}

export interface DbPluginOptions {
  connectionString: string
  max?: number
}

/**
 * One Kysely instance per app, checked by /ready, destroyed on close. It lives here, not in http-kit, so a
 * service without a database (ingest, gateway) never loads `pg`; the type-only import above brings
 * http-kit's `serviceName` and `addReadinessCheck` declarations.
 */
export const dbPlugin = fp(
  async (app: FastifyInstance, options: DbPluginOptions) => {
    const db = createDb({
      connectionString: options.connectionString,
      max: options.max,
      logger: app.log,
      applicationName: app.serviceName,
    })
    app.decorate('db', db)
    app.addReadinessCheck('postgres', () => isDatabaseReachable(db))
    app.addHook('onClose', async () => {
      await db.destroy()
    })
  },
  { name: 'db', dependencies: ['health'] },
)
