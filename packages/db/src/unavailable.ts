import pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { namedIfPrepared } from './prepared.ts'

/** The `code` of a DatabaseUnavailableError; http-kit's error handler answers it as "a dependency is down". */
export const DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE'

/**
 * Postgres could not be reached or dropped the connection. node-postgres reports these as plain errors
 * without a code ("Connection terminated unexpectedly", a pool connect timeout); this type lets callers
 * classify them by type or code instead of by their text.
 */
export class DatabaseUnavailableError extends Error {
  readonly code = DATABASE_UNAVAILABLE
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DatabaseUnavailableError'
  }
}

/**
 * A server error (it has a SQLSTATE), a system error (it has Node's `code`) and a programming error
 * (TypeError, RangeError) keep their own type; any other error from the driver is the connection failing.
 */
function classified(error: unknown): unknown {
  if (!(error instanceof Error) || error instanceof pg.DatabaseError) return error
  if (error instanceof TypeError || error instanceof RangeError) return error
  if (typeof (error as { code?: unknown }).code === 'string') return error
  return new DatabaseUnavailableError(`database unavailable: ${error.message}`, { cause: error })
}

function classifyingClient(client: pg.PoolClient): PostgresPoolClient {
  return {
    query(...args: [string, ReadonlyArray<unknown>] | [never]) {
      const result = (client.query as (...a: unknown[]) => unknown)(...namedIfPrepared(args))
      if (result instanceof Promise) return result.catch((error: unknown) => { throw classified(error) })
      return result
    },
    release: () => client.release(),
  } as PostgresPoolClient
}

/** The pool Kysely drives, with connection failures turned into DatabaseUnavailableError. */
export function classifyingPool(pool: pg.Pool): PostgresPool {
  return {
    connect: () => pool.connect().then(classifyingClient, (error: unknown) => { throw classified(error) }),
    end: () => pool.end(),
  }
}
