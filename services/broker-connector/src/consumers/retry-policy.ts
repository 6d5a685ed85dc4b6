import { PermanentError, type MessageContext } from '@signals/bus'
import { isDatabaseReachable, type Database, type Kysely } from '@signals/db'
import { isDependencyDown } from '@signals/http-kit'
import type { Logger } from './close-trades.ts'

/**
 * SQLSTATE classes that retrying cannot fix: 22 (data exception: a value out of range for its column) and
 * 23 (integrity constraint), except a foreign-key miss, which a concurrent change can cause and a retry
 * can get past.
 */
function isPermanentSqlError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  if (typeof code !== 'string' || code.length !== 5) return false
  return code.startsWith('22') || (code.startsWith('23') && code !== '23503')
}

export interface RetryPolicyOptions {
  db: Kysely<Database>
  maxAttempts: number
  logger: Logger
  /** How often to ask Postgres whether it is back while holding a message (default 1 s). */
  pollMs?: number
}

/**
 * Wraps a handler so that:
 * - a message that can never succeed (bad data for a column, a violated constraint) is dead-lettered
 *   at once with the reason, as a PermanentError;
 * - a Postgres outage never exhausts the delivery budget: failures are nak'ed with growing delay by the
 *   bus, and the last-but-one delivery is held (telling the server it is still being worked on) until
 *   Postgres answers, then run again. Nothing is lost however long the outage; while held, this
 *   instance takes no new work, which is the back-pressure an outage calls for.
 */
export function withRetryPolicy<T>(
  options: RetryPolicyOptions,
  handler: (payload: T, context: MessageContext) => Promise<void>,
): (payload: T, context: MessageContext) => Promise<void> {
  const pollMs = options.pollMs ?? 1_000
  return async (payload, context) => {
    try {
      await handler(payload, context)
    } catch (error) {
      if (error instanceof PermanentError) throw error
      if (isPermanentSqlError(error)) {
        throw new PermanentError(`rejected by the database: ${(error as Error).message}`, { cause: error })
      }
      if (!isDependencyDown(error) || context.deliveryCount < options.maxAttempts - 1) throw error
      options.logger.warn({ subject: context.subject, deliveryCount: context.deliveryCount }, 'postgres unreachable; holding the message until it answers')
      while (!(await isDatabaseReachable(options.db))) {
        context.working()
        await new Promise((resolve) => setTimeout(resolve, pollMs))
      }
      await handler(payload, context)
    }
  }
}
