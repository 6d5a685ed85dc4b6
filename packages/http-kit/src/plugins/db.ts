import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { createDb, isDatabaseReachable, type Database, type Kysely } from '@signals/db'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>
  }
}

export interface DbPluginOptions {
  connectionString: string
  max?: number
}

/** One Kysely instance per app, checked by /ready, destroyed on close. */
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
