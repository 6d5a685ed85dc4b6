import type { Static, TSchema } from 'typebox'
import { PermanentError, type Bus, type ConsumerHandle, type MessageContext } from '@signals/bus'
import type { DurableRow } from './table.ts'

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

/** The configured part of the retry policy, the same for every durable consumer. */
export interface DurableSettings {
  /** Deliveries before a message failing for a reason of its own is dead-lettered. */
  maxAttempts: number
  /** Messages one instance handles at once (rows marked in order take one). */
  concurrency: number
  ackWaitMs: number
  /** Longest wait between two deliveries of a failing message (the delay doubles from 250 ms up to it). */
  backoffMaxMs: number
}

type Handler<S extends TSchema> = (payload: Static<S>, context: MessageContext) => Promise<void>

/**
 * Starts one row of the durable table under the one retry policy:
 * - a dependency outage (Postgres, NATS, a peer instance not answering) is nak'ed with growing delay
 *   and never dead-lettered, however long it lasts (the bus's rule, @signals/bus isDependencyDown);
 * - a message that can never be handled (fails its contract, bad data for a column, a violated
 *   constraint) is dead-lettered at once with the reason;
 * - any other failure is retried with backoff and dead-lettered with its last error after maxAttempts.
 */
export function startDurable<S extends TSchema>(bus: Bus, row: DurableRow<S>, handler: Handler<S>, settings: DurableSettings): Promise<ConsumerHandle> {
  return bus.consume({
    stream: row.stream,
    subject: row.subject,
    durable: row.durable,
    contract: row.contract,
    maxAttempts: settings.maxAttempts,
    ackWaitMs: settings.ackWaitMs,
    backoff: { initialMs: Math.min(250, settings.backoffMaxMs), maxMs: settings.backoffMaxMs },
    concurrency: row.inOrder ? 1 : settings.concurrency,
    handler: async (payload, context) => {
      try {
        await handler(payload, context)
      } catch (error) {
        if (isPermanentSqlError(error)) throw new PermanentError(`rejected by the database: ${(error as Error).message}`, { cause: error })
        throw error
      }
    },
  })
}
