import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { Counter, Gauge, type Registry } from 'prom-client'
import { backoffDelay, type Bus } from '@signals/bus'
import { contract, INTAKE_LOG_BATCH_MAX_ENTRIES, IntakeLogEntryV1, Subjects } from '@signals/contracts'
import type { IntakeEntry } from './intake-state.ts'

const IntakeEntryContract = contract(IntakeLogEntryV1)
/** Short enough that the log catches up within seconds of the bus coming back. */
const RETRY_BACKOFF = { initialMs: 250, maxMs: 5_000 }
/** Entries are gathered this long and sent as one message. */
const GATHER_MS = 20
/**
 * A batch is sent early once its entries reach this size (counted in UTF-16 units for ordinary entries,
 * so at most three times as many bytes: still under NATS's default 1 MiB max_payload).
 */
const MAX_BATCH_BYTES = 256 * 1024
/** Room the batch's own fields take beside its entries. */
const BATCH_ENVELOPE_BYTES = 128

export interface IntakeLogOptions {
  /** Entries waiting for the bus at most; beyond it an entry goes to the process log only. */
  maxPending?: number
  publishTimeoutMs?: number
}

interface Batch {
  batchId: string
  entries: IntakeEntry[]
  body: Uint8Array
}

const encoder = new TextEncoder()

/**
 * Publishes one intake-log entry per webhook on `intake.log`, after the answer was sent, so an alert's 200
 * never waits on it and a failed log publish never costs the alert.
 *
 * Entries recorded within 20 ms travel together in one message (IntakeLogBatchV1), acknowledged by the
 * stream like any other publish: one message per webhook cost as much as the alert's own publish. A batch
 * that is not acknowledged is resent, under the same batch id, with backoff until the stream has it or
 * the service closes; the consumer keys rows by intake id, so nothing is written twice. Each entry is
 * checked against its contract when recorded, so a bad one is set aside alone. Entries that cannot wait
 * (backlog full, too large for the bus, closing) are written whole to the process log at error level and
 * counted in `ingest_intake_log_dropped_total`: never dropped silently.
 */
export class IntakeLog {
  readonly #subject: string
  readonly #delivering = new Set<Promise<void>>()
  #deliveringEntries = 0
  #gathered: IntakeEntry[] = []
  #gatheredJson: string[] = []
  #gatheredBytes = 0
  #gatherTimer: NodeJS.Timeout | undefined
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
    new Gauge({ name: 'ingest_intake_log_pending', help: 'intake-log entries not yet acknowledged by the bus', registers: [registry], collect() { this.set(pending()) } })
  }

  record(entry: IntakeEntry): void {
    if (this.#closing.signal.aborted) return this.#drop([entry], 'service closing')
    if (this.#pending() >= this.#maxPending) return this.#drop([entry], 'intake-log backlog full')
    const problem = IntakeEntryContract.problem(entry)
    if (problem !== null) return this.#drop([entry], `breaks IntakeLogEntryV1: ${problem}`)
    const json = JSON.stringify(entry)
    // UTF-8 takes at most 3 bytes per UTF-16 unit: the exact count is needed only for a very long entry.
    const bytes = json.length * 3 + BATCH_ENVELOPE_BYTES <= this.#maxMessageBytes() ? json.length : Buffer.byteLength(json)
    if (bytes + BATCH_ENVELOPE_BYTES > this.#maxMessageBytes()) return this.#drop([entry], 'entry larger than the bus takes in one message')
    if (this.#gatheredBytes + bytes > this.#batchLimit()) this.#sendGathered()
    this.#gathered.push(entry)
    this.#gatheredJson.push(json)
    this.#gatheredBytes += bytes + 1
    if (this.#gathered.length >= INTAKE_LOG_BATCH_MAX_ENTRIES) this.#sendGathered()
    else this.#gatherTimer ??= setTimeout(() => this.#sendGathered(), GATHER_MS)
  }

  #pending(): number {
    return this.#gathered.length + this.#deliveringEntries
  }

  /** Size (see MAX_BATCH_BYTES) at which a batch is sent early; with three bytes a unit, it still fits one message. */
  #batchLimit(): number {
    return Math.min(MAX_BATCH_BYTES, Math.floor((this.#maxMessageBytes() - BATCH_ENVELOPE_BYTES) / 3))
  }

  /** The server's max_payload, with room for the headers. */
  #maxMessageBytes(): number {
    return (this.bus.nc.info?.max_payload ?? 1024 * 1024) - 1024
  }

  /** Sends what was gathered as one batch. */
  #sendGathered(): void {
    clearTimeout(this.#gatherTimer)
    this.#gatherTimer = undefined
    if (this.#gathered.length === 0) return
    const batchId = randomUUID()
    const batch: Batch = {
      batchId,
      entries: this.#gathered,
      // Entries were each checked against IntakeLogEntryV1 and serialized when recorded; the envelope is ours.
      body: encoder.encode(`{"version":1,"batchId":"${batchId}","entries":[${this.#gatheredJson.join(',')}]}`),
    }
    this.#gathered = []
    this.#gatheredJson = []
    this.#gatheredBytes = 0
    this.#deliveringEntries += batch.entries.length
    const delivery = this.#deliver(batch).finally(() => {
      this.#deliveringEntries -= batch.entries.length
      this.#delivering.delete(delivery)
    })
    this.#delivering.add(delivery)
  }

  async #deliver(batch: Batch): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.bus.publishRaw(this.#subject, batch.body, { messageId: batch.batchId, timeoutMs: this.#publishTimeoutMs })
        this.#published.inc(batch.entries.length)
        return
      } catch (error) {
        if (this.#closing.signal.aborted) return this.#drop(batch.entries, String(error))
        if (attempt === 1) this.logger.warn({ err: error, batchId: batch.batchId, entries: batch.entries.length }, 'intake-log publish failed; retrying')
        await sleep(backoffDelay(attempt, RETRY_BACKOFF), this.#closing.signal)
        if (this.#closing.signal.aborted) return this.#drop(batch.entries, 'service closing before the bus took it')
      }
    }
  }

  #drop(entries: readonly IntakeEntry[], reason: string): void {
    this.#dropped.inc(entries.length)
    for (const entry of entries) this.logger.error({ intakeLogEntry: entry, reason }, 'intake-log entry not delivered to the bus; kept here')
  }

  /** Sends what was gathered, lets deliveries run for up to `graceMs`, then logs whatever is left. */
  async close(graceMs = 3_000): Promise<void> {
    this.#sendGathered()
    if (this.#delivering.size > 0) {
      let timer: NodeJS.Timeout | undefined
      await Promise.race([Promise.allSettled([...this.#delivering]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))])
      clearTimeout(timer)
    }
    this.#closing.abort()
    await Promise.allSettled([...this.#delivering])
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
