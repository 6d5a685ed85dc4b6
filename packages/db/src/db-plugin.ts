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
    // Unreachable at start: the start fails with the connection error (main.ts says it in one sentence, see
    // buildOrExplain) rather than a service that answers 503 to everything.
    try {
      await db.selectNoFrom((eb) => eb.val(1).as('one')).execute()
    } catch (error) {
      await db.destroy()
      throw error
    }
    app.decorate('db', db)
    app.addReadinessCheck('postgres', () => isDatabaseReachable(db))
    app.addHook('onClose', async () => {
      await db.destroy()
    })
  },
  { name: 'db', dependencies: ['health'] },
)
