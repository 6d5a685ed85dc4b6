import type { FastifyBaseLogger } from 'fastify'
import { Counter, Gauge, type Registry } from 'prom-client'
import { ContractViolationError, backoffDelay, type Bus } from '@signals/bus'
import { contract, IntakeLogMessageV1, Subjects, type IntakeLogMessage } from '@signals/contracts'
import type { IntakeEntry } from './intake-state.ts'

const IntakeLogContract = contract(IntakeLogMessageV1)
/** Short enough that the log catches up within seconds of the bus coming back. */
const RETRY_BACKOFF = { initialMs: 250, maxMs: 5_000 }

export interface IntakeLogOptions {
  /** Entries waiting for the bus at most; beyond it an entry goes to the process log only. */
  maxPending?: number
  publishTimeoutMs?: number
}

/**
 * Publishes one intake-log entry per webhook on `intake.log`, after the answer was sent, so an alert's
 * 200 never waits on it and a failed log publish never costs the alert. An entry the bus does not take is
 * retried with backoff (same message id: a late ack cannot make it twice) until it is delivered or the
 * service closes; entries that cannot wait (backlog full, closing) are written whole to the process log
 * at error level and counted in `ingest_intake_log_dropped_total`, never dropped silently.
 */
export class IntakeLog {
  readonly #inFlight = new Set<Promise<void>>()
  readonly #closing = new AbortController()
  readonly #maxPending: number
  readonly #publishTimeoutMs: number
  readonly #dropped: Counter
  readonly #published: Counter

  constructor(
    private readonly bus: Bus,
    private readonly logger: FastifyBaseLogger,
    registry: Registry,
    options: IntakeLogOptions = {},
  ) {
    this.#maxPending = options.maxPending ?? 10_000
    this.#publishTimeoutMs = options.publishTimeoutMs ?? 2_000
    this.#dropped = new Counter({ name: 'ingest_intake_log_dropped_total', help: 'intake-log entries not delivered to the bus (kept in the process log)', registers: [registry] })
    this.#published = new Counter({ name: 'ingest_intake_log_published_total', help: 'intake-log entries delivered to the bus', registers: [registry] })
    const inFlight = this.#inFlight
    new Gauge({ name: 'ingest_intake_log_pending', help: 'intake-log entries waiting for the bus', registers: [registry], collect() { this.set(inFlight.size) } })
  }

  record(entry: IntakeEntry): void {
    if (this.#closing.signal.aborted || this.#inFlight.size >= this.#maxPending) {
      this.#drop(entry, this.#closing.signal.aborted ? 'service closing' : 'intake-log backlog full')
      return
    }
    const delivery = this.#deliver(entry).finally(() => this.#inFlight.delete(delivery))
    this.#inFlight.add(delivery)
  }

  async #deliver(entry: IntakeEntry): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.bus.publish(Subjects.intakeLog, IntakeLogContract, entry as IntakeLogMessage, { messageId: entry.intakeId, timeoutMs: this.#publishTimeoutMs })
        this.#published.inc()
        return
      } catch (error) {
        if (error instanceof ContractViolationError) return this.#drop(entry, error.message)
        if (this.#closing.signal.aborted) return this.#drop(entry, String(error))
        if (attempt === 1) this.logger.warn({ err: error, intakeId: entry.intakeId }, 'intake-log publish failed; retrying')
        await sleep(backoffDelay(attempt, RETRY_BACKOFF), this.#closing.signal)
        if (this.#closing.signal.aborted) return this.#drop(entry, 'service closing before the bus took it')
      }
    }
  }

  #drop(entry: IntakeEntry, reason: string): void {
    this.#dropped.inc()
    this.logger.error({ intakeLogEntry: entry, reason }, 'intake-log entry not delivered to the bus; kept here')
  }

  /** Lets deliveries under way finish for up to `graceMs`, then logs whatever is left. */
  async close(graceMs = 3_000): Promise<void> {
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([Promise.allSettled([...this.#inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
      clearTimeout(timer)
    }
    this.#closing.abort()
    await Promise.allSettled([...this.#inFlight])
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}
