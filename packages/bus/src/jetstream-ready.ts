import { NoRespondersError, RequestError, TimeoutError, type NatsConnection } from '@nats-io/nats-core'
import { JetStreamApiError } from '@nats-io/jetstream'
import type { BusLogger } from './bus-logger.ts'

/**
 * JetStream answers that mean "not yet", not "no": the API request timed out, nobody answered it (a server
 * still starting, a cluster without a meta leader yet: the client's "jetstream is not enabled" wraps that
 * no-responders error as its cause), or the server said 503 ("JetStream system temporarily unavailable"
 * while a stream's or consumer's leader is elected). Classified by type and status along the cause chain,
 * never by message text.
 */
export function isJetStreamNotReady(error: unknown): boolean {
  for (let each = error, depth = 0; each instanceof Error && depth < 5; each = each.cause, depth++) {
    if (each instanceof TimeoutError || each instanceof NoRespondersError) return true
    if (each instanceof RequestError && each.isNoResponders()) return true
    if (each instanceof JetStreamApiError && each.status === 503) return true
  }
  return false
}

export interface UntilReadyOptions {
  logger: Pick<BusLogger, 'warn'>
  /** Stops waiting once closed (the service is closing): the last error is thrown then. */
  nc?: NatsConnection
  /**
   * How long the step may keep trying. Below the app's start-step time-out (http-kit's
   * START_STEP_TIMEOUT_MS, 60 s), so a JetStream that never answers fails the start with its own error.
   */
  withinMs?: number
  /** First delay; doubled after each try up to `maxDelayMs`. */
  initialDelayMs?: number
  maxDelayMs?: number
}

const START_RETRY_WITHIN_MS = 45_000

/**
 * Runs a start step that needs JetStream (streams, buckets, consumers ensured) and runs it again with a
 * doubling, capped delay while JetStream answers "not yet" (isJetStreamNotReady), saying so in one log
 * line each time; any other error, or "not yet" past `withinMs`, is thrown. The step must be safe to run
 * again from the start (each one ensures, never assumes).
 */
export async function untilJetStreamReady<T>(what: string, step: () => Promise<T>, options: UntilReadyOptions): Promise<T> {
  const deadline = Date.now() + (options.withinMs ?? START_RETRY_WITHIN_MS)
  const maxDelayMs = options.maxDelayMs ?? 5_000
  let delayMs = options.initialDelayMs ?? 250
  for (let attempt = 1; ; attempt++) {
    try {
      return await step()
    } catch (error) {
      const closed = options.nc?.isClosed() ?? false
      if (!isJetStreamNotReady(error) || closed || Date.now() + delayMs > deadline) throw error
      options.logger.warn(
        { step: what, attempt, retryInMs: delayMs, err: String(error) },
        `JetStream not ready yet (${errorName(error)}): ${what} tried again in ${delayMs} ms`,
      )
      await new Promise((resolve) => setTimeout(resolve, delayMs))
      delayMs = Math.min(maxDelayMs, delayMs * 2)
    }
  }
}

function errorName(error: unknown): string {
  if (error instanceof JetStreamApiError) return `${error.status} ${error.message}`
  return error instanceof Error ? error.name : String(error)
}
