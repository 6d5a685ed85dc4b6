import type { FastifyBaseLogger } from 'fastify'
import { headers as natsHeaders } from '@nats-io/nats-core'
import { Counter, Gauge, type Registry } from 'prom-client'
import { backoffDelay, type Bus } from '@signals/bus'
import { contract, describeIssues, IntakeLogMessageV1, Subjects, type IntakeLogMessage } from '@signals/contracts'
import type { IntakeEntry } from './intake-state.ts'

const IntakeLogContract = contract(IntakeLogMessageV1)
/** Short enough that the log catches up within seconds of the bus coming back. */
const RETRY_BACKOFF = { initialMs: 250, maxMs: 5_000 }
/** Entries are gathered this long, sent in one write and confirmed together with one round trip. */
const BATCH_AFTER_MS = 20

export interface IntakeLogOptions {
  /** Entries waiting for the bus at most; beyond it an entry goes to the process log only. */
  maxPending?: number
  publishTimeoutMs?: number
}

/**
 * Publishes one intake-log entry per webhook on `intake.log` after the answer was sent, so an alert's 200
 * never waits on it and a failed log publish never costs the alert.
 *
 * The fast path gathers entries for 20 ms and sends them in one write without a per-message JetStream ack
 * (which would double the acked publishes per webhook), then confirms the batch with one server round
 * trip (PING/PONG): the server has received everything sent before. An entry whose batch is not confirmed, or that arrives while the connection is
 * down, goes to the acked path, which retries with backoff until the stream acknowledges it or the service
 * closes. Every entry carries its intake id as the message id, so the stream keeps one copy however it got
 * there. Entries that cannot wait (backlog full, closing) are written whole to the process log at error
 * level and counted in `ingest_intake_log_dropped_total`: never dropped silently.
 */
export class IntakeLog {
  readonly #subject: string
  readonly #retrying = new Set<Promise<void>>()
  readonly #confirming = new Set<Promise<void>>()
  #unconfirmed: IntakeEntry[] = []
  #confirmTimer: NodeJS.Timeout | undefined
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
    this.#subject = bus.subject(Subjects.intakeLog)
    this.#maxPending = options.maxPending ?? 10_000
    this.#publishTimeoutMs = options.publishTimeoutMs ?? 2_000
    this.#dropped = new Counter({ name: 'ingest_intake_log_dropped_total', help: 'intake-log entries not delivered to the bus (kept in the process log)', registers: [registry] })
    this.#published = new Counter({ name: 'ingest_intake_log_published_total', help: 'intake-log entries delivered to the bus', registers: [registry] })
    const pending = () => this.#pending()
    new Gauge({ name: 'ingest_intake_log_pending', help: 'intake-log entries not yet confirmed by the bus', registers: [registry], collect() { this.set(pending()) } })
  }

  record(entry: IntakeEntry): void {
    if (this.#closing.signal.aborted) return this.#drop(entry, 'service closing')
    if (this.#pending() >= this.#maxPending) return this.#drop(entry, 'intake-log backlog full')
    const validation = IntakeLogContract.validate(entry)
    if (!validation.ok) return this.#drop(entry, `breaks IntakeLogMessageV1: ${describeIssues(validation.issues)}`)
    this.#unconfirmed.push(entry)
    this.#confirmTimer ??= setTimeout(() => this.#sendBatch(), BATCH_AFTER_MS)
  }

  #pending(): number {
    return this.#unconfirmed.length + this.#retrying.size
  }

  /** Sends the entries gathered since the last batch in one write, then confirms them with one round trip. */
  #sendBatch(): void {
    this.#confirmTimer = undefined
    const batch: IntakeEntry[] = []
    for (const entry of this.#unconfirmed.splice(0)) {
      if (this.#send(entry)) batch.push(entry)
      else this.#retry(entry)
    }
    if (batch.length === 0) return
    const confirmation = this.bus.ping(this.#publishTimeoutMs).then((received) => {
      if (received) this.#published.inc(batch.length)
      else for (const entry of batch) this.#retry(entry)
    })
    const tracked = confirmation.finally(() => this.#confirming.delete(tracked))
    this.#confirming.add(tracked)
  }

  #send(entry: IntakeEntry): boolean {
    if (!this.bus.isConnected()) return false
    try {
      const headers = natsHeaders()
      headers.set('Nats-Msg-Id', entry.intakeId)
      this.bus.nc.publish(this.#subject, JSON.stringify(entry), { headers })
      return true
    } catch {
      return false
    }
  }

  #retry(entry: IntakeEntry): void {
    const delivery = this.#deliverAcked(entry).finally(() => this.#retrying.delete(delivery))
    this.#retrying.add(delivery)
  }

  async #deliverAcked(entry: IntakeEntry): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.bus.publish(Subjects.intakeLog, IntakeLogContract, entry as IntakeLogMessage, { messageId: entry.intakeId, timeoutMs: this.#publishTimeoutMs })
        this.#published.inc()
        return
      } catch (error) {
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

  /** Confirms what was sent, lets retries run for up to `graceMs`, then logs whatever is left. */
  async close(graceMs = 3_000): Promise<void> {
    clearTimeout(this.#confirmTimer)
    if (this.#unconfirmed.length > 0) this.#sendBatch()
    await Promise.allSettled([...this.#confirming])
    if (this.#retrying.size > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([Promise.allSettled([...this.#retrying]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
      clearTimeout(timer)
    }
    this.#closing.abort()
    await Promise.allSettled([...this.#retrying])
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
