import pg from 'pg'
import { Kysely, PostgresDialect } from 'kysely'
import type { Database } from './schema.ts'
import { classifyingPool } from './unavailable.ts'
import { querySpans } from './query-spans.ts'

export interface DbLogger {
  warn(object: object, message: string): void
}

export interface CreateDbOptions {
  connectionString: string
  /** Pool size; the default suits one service instance on a small machine. */
  max?: number
  logger?: DbLogger
  /** Names the connections in Postgres (pg_stat_activity) and the tracer of the statements' spans. */
  applicationName?: string
}

const INT8_OID = 20

/**
 * Kysely over a pg Pool that survives a Postgres restart: node-postgres emits `error` on the pool and on
 * each client when the server goes away, and an unhandled `error` event ends the process. Both are
 * handled here; the failed query rejects (with DatabaseUnavailableError) and the pool reconnects on the next one.
 */
export function createDb(options: CreateDbOptions): Kysely<Database> {
  const logger = options.logger ?? { warn: () => undefined }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Idle connections never keep a process alive (a service's server does): a start that failed after the
    // database answered (Redis down, see dbPlugin) exits at once instead of 30 s later.
    allowExitOnIdle: true,
    application_name: options.applicationName,
    types: {
      // bigint ids and counts fit in a double here; NUMERIC stays a string (exact).
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  })
  const onError = (error: Error) => logger.warn({ err: error }, 'postgres connection error (will reconnect)')
  pool.on('error', onError)
  pool.on('connect', (client) => client.on('error', onError))
  // A span per statement while tracing is on (named after the service, or `db`); nothing at all while it is off.
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: classifyingPool(pool) }), log: querySpans(options.applicationName ?? 'db') })
}

/** True when Postgres answers a trivial query. */
export async function isDatabaseReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute()
    return true
  } catch {
    return false
  }
}
