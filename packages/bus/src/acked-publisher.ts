import { createInbox, headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from '@nats-io/nats-core'
import { TRACEPARENT } from '@signals/telemetry'
import { BusUnavailableError } from './errors.ts'

export interface PublishResult {
  stream: string
  sequence: number
  /** The server already had this message id within its duplicate window. */
  duplicate: boolean
}

interface PendingAck {
  subject: string
  data: Uint8Array
  messageId: string
  /** The publish span's W3C trace context, sent in the message's headers (tracing on only). */
  traceparent: string | undefined
  timeoutMs: number
  expiresAt: number
  resolve(result: PublishResult): void
  reject(error: Error): void
}

/** How often expired acks are looked for: a publish fails at most this much after its time-out. */
const SWEEP_INTERVAL_MS = 50

/**
 * JetStream publishes (a message with a reply subject; the stream answers with its PubAck) sharing one
 * reply subscription and one time-out sweep.
 *
 * `js.publish` does the same protocol exchange, but sets a timer and builds two Error objects (with stack
 * traces) per message, one of them on every successful ack; at webhook rates that was the largest single
 * CPU cost of an accepted alert (docs/benchmarks/ingest.md). Here a publish costs one map entry.
 *
 * Publishes are sent together once the event loop has taken in everything that was ready (a
 * `setImmediate`): the NATS client writes to its socket in a microtask after the first message, so
 * messages published from separate I/O callbacks would each cost a write system call; sent together they
 * share one, for at most one loop turn of latency.
 */
export class AckedPublisher {
  readonly #inbox = createInbox()
  readonly #pending = new Map<string, PendingAck>()
  #queued: PendingAck[] = []
  readonly #replies: Subscription
  #sequence = 0
  #sweeper: NodeJS.Timeout | undefined

  constructor(private readonly nc: NatsConnection) {
    this.#replies = nc.subscribe(`${this.#inbox}.*`, {
      callback: (error, msg) => {
        if (error === null) this.#settle(msg)
      },
    })
  }

  /** Resolves once the stream has stored the message (or recognised its id); rejects with BusUnavailableError otherwise. */
  publish(subject: string, data: Uint8Array, messageId: string, timeoutMs: number, traceparent?: string): Promise<PublishResult> {
    return new Promise<PublishResult>((resolve, reject) => {
      if (this.#queued.push({ subject, data, messageId, traceparent, timeoutMs, expiresAt: 0, resolve, reject }) === 1) setImmediate(() => this.#send())
    })
  }

  #send(): void {
    const queued = this.#queued
    this.#queued = []
    for (const publish of queued) {
      const token = (this.#sequence++).toString(36)
      const headers = natsHeaders()
      headers.set('Nats-Msg-Id', publish.messageId)
      if (publish.traceparent !== undefined) headers.set(TRACEPARENT, publish.traceparent)
      try {
        this.nc.publish(publish.subject, publish.data, { reply: `${this.#inbox}.${token}`, headers })
      } catch (error) {
        publish.reject(new BusUnavailableError(`publish on ${publish.subject} was not acknowledged: ${String(error)}`, { cause: error }))
        continue
      }
      publish.expiresAt = performance.now() + publish.timeoutMs
      this.#pending.set(token, publish)
    }
    if (this.#pending.size > 0) this.#sweeper ??= setInterval(() => this.#sweep(), SWEEP_INTERVAL_MS)
  }

  /** Fails whatever is still waiting for its ack and stops listening. */
  close(): void {
    this.#send()
    for (const [token, pending] of this.#pending) {
      this.#pending.delete(token)
      pending.reject(new BusUnavailableError(`publish on ${pending.subject} was not acknowledged: connection closed`))
    }
    this.#stopSweeper()
    if (!this.nc.isClosed()) this.#replies.unsubscribe()
  }

  #settle(msg: Msg): void {
    const token = msg.subject.slice(this.#inbox.length + 1)
    const pending = this.#pending.get(token)
    if (pending === undefined) return // answered after its time-out: the caller has been told already
    this.#pending.delete(token)
    if (this.#pending.size === 0) this.#stopSweeper()
    if (msg.data.length === 0) {
      // A status message: 503 means no stream listens on the subject.
      pending.reject(new BusUnavailableError(`publish on ${pending.subject} was not acknowledged: no stream (status ${msg.headers?.code ?? 'unknown'})`))
      return
    }
    let ack: { stream?: unknown; seq?: unknown; duplicate?: unknown; error?: { code?: unknown; description?: unknown } }
    try {
      ack = JSON.parse(msg.string()) as typeof ack
    } catch {
      ack = {}
    }
    if (typeof ack !== 'object' || ack === null) ack = {}
    if (ack.error !== undefined || typeof ack.stream !== 'string' || typeof ack.seq !== 'number') {
      const reason = ack.error === undefined ? 'malformed ack' : `${String(ack.error.description)} (${String(ack.error.code)})`
      pending.reject(new BusUnavailableError(`publish on ${pending.subject} was not acknowledged: ${reason}`))
      return
    }
    pending.resolve({ stream: ack.stream, sequence: ack.seq, duplicate: ack.duplicate === true })
  }

  #sweep(): void {
    const now = performance.now()
    for (const [token, pending] of this.#pending) {
      if (pending.expiresAt > now) continue
      this.#pending.delete(token)
      pending.reject(new BusUnavailableError(`publish on ${pending.subject} was not acknowledged in time`))
    }
    if (this.#pending.size === 0) this.#stopSweeper()
  }

  #stopSweeper(): void {
    clearInterval(this.#sweeper)
    this.#sweeper = undefined
  }
}
