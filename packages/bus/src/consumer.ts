import { AckPolicy, DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream'
import { nanos, type NatsConnection } from '@nats-io/nats-core'
import { isAlreadyCreated } from './api-errors.ts'
import type { TSchema, Static } from 'typebox'
import { DeadLetterV1, contract, describeIssues, type Contract } from '@signals/contracts'
import type { BusLogger } from './bus-logger.ts'
import type { Namespace } from './topology.ts'
import { PermanentError, RetryLaterError } from './errors.ts'
import { isDependencyDown } from './dependency-down.ts'
import { backoffDelay, defaultBackoff, type BackoffOptions } from './backoff.ts'
import type { BusObserver } from './bus-observer.ts'
import { tracerFor } from '@signals/telemetry'
import { tracedDelivery } from './tracing.ts'
import { untilJetStreamReady } from './jetstream-ready.ts'

export interface MessageContext {
  subject: string
  /** 1 on the first delivery. */
  deliveryCount: number
  messageId: string | null
  /** Tells the server the handler is still busy, so the message is not redelivered meanwhile. */
  working(): void
}

export interface ConsumeOptions<S extends TSchema> {
  /** Contract stream name (`ALERTS`); namespaced by the bus. */
  stream: string
  /** Durable consumer name: every instance using the same name shares the work. */
  durable: string
  /** Contract subject to filter on (`alerts.entry`); namespaced by the bus. */
  subject: string
  contract: Contract<S>
  handler: (payload: Static<S>, context: MessageContext) => Promise<void>
  /**
   * Deliveries before a failing message is dead-lettered (default 8). A dependency outage (isDependencyDown)
   * never counts: such a message is retried with backoff until the dependency answers.
   */
  maxAttempts?: number
  backoff?: BackoffOptions
  /** How long the server waits for an ack before redelivering (default 30 s). */
  ackWaitMs?: number
  /** Messages handled at once by this instance (default 1: in order). */
  concurrency?: number
}

export interface ConsumerHandle {
  /** Contract stream name (`ALERTS`). */
  readonly stream: string
  readonly durable: string
  /** Stops fetching, waits for in-flight handlers. */
  stop(): Promise<void>
  readonly closed: Promise<void>
}

/**
 * What a consumer needs of the bus. The Bus class has all of it; it is named here so that bus.ts (which
 * starts consumers) and this file do not import each other.
 */
export interface ConsumerBus {
  readonly nc: NatsConnection
  readonly js: JetStreamClient
  readonly jsm: JetStreamManager
  readonly ns: Namespace
  readonly logger: BusLogger
  readonly observer: BusObserver
  /** The service consuming: names its spans' tracer. */
  readonly service: string
  stream(name: string): string
  subject(name: string): string
  publish<S extends TSchema>(subject: string, contract: Contract<S>, payload: Static<S>, options: { messageId: string }): Promise<unknown>
}

const deadLetterContract = contract(DeadLetterV1)
const decoder = new TextDecoder()

/**
 * Acks gathered for up to ACK_GATHER_MS (or ACK_GATHER_MAX of them) and written together: the NATS client
 * writes to its socket in a microtask after the first message, so acks from separate I/O callbacks (each
 * handler's last database answer) would each cost a write system call, the connector's largest CPU cost per
 * alert after its queries (docs/benchmarks/platform.md). A delivery does not wait for its ack to be written
 * (its slot goes to the next message at once); a stopping consumer writes whatever is gathered before it
 * returns, and an ack never written leaves the message to be redelivered, as a crash would.
 */
const ACK_GATHER_MS = 5
const ACK_GATHER_MAX = 256
let queuedAcks: { message: JsMsg; failed: (error: unknown) => void }[] = []
let ackTimer: NodeJS.Timeout | undefined
function ackSoon(message: JsMsg, failed: (error: unknown) => void): void {
  const queued = queuedAcks.push({ message, failed })
  if (queued >= ACK_GATHER_MAX) sendAcks()
  else if (queued === 1) ackTimer = setTimeout(sendAcks, ACK_GATHER_MS)
}
function sendAcks(): void {
  clearTimeout(ackTimer)
  ackTimer = undefined
  const acks = queuedAcks
  queuedAcks = []
  for (const { message, failed } of acks) {
    try {
      message.ack()
    } catch (error) {
      // The connection is closed: the message is redelivered once a consumer fetches again.
      failed(error)
    }
  }
}

/**
 * Messages asked for at a time; a new pull is sent once the server owes a quarter of them or fewer (the
 * client's default is three quarters: a pull, one socket write, for every eighth message under load).
 */
function pullOptions(concurrency: number): { max_messages: number; threshold_messages: number } {
  const maxMessages = Math.max(32, concurrency * 2)
  return { max_messages: maxMessages, threshold_messages: Math.floor(maxMessages / 4) }
}

/** Creates or updates the durable consumer, then runs the consume loop until stopped. */
export async function startConsumer<S extends TSchema>(bus: ConsumerBus, options: ConsumeOptions<S>): Promise<ConsumerHandle> {
  const stream = bus.stream(options.stream)
  const filterSubject = bus.subject(options.subject)
  const maxAttempts = options.maxAttempts ?? 8
  const backoff = options.backoff ?? defaultBackoff
  const concurrency = Math.max(1, options.concurrency ?? 1)
  const config = {
    durable_name: options.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filterSubject,
    ack_wait: nanos(options.ackWaitMs ?? 30_000),
    // We bound attempts ourselves so the last one can be dead-lettered with its reason.
    max_deliver: -1,
    max_ack_pending: Math.max(1_000, concurrency * 4),
  }
  // A consumer created right after its stream (or while the cluster elects its leader) may hear "not yet":
  // waited out, not a failed start (issue 21).
  let messages: ConsumerMessages | undefined = await untilJetStreamReady(
    `consumer ${options.durable} started`,
    async () => {
      await ensureConsumer(bus, stream, config)
      const consumer = await bus.js.consumers.get(stream, options.durable)
      return consumer.consume(pullOptions(concurrency))
    },
    { logger: bus.logger, nc: bus.nc },
  )
  const inFlight = new Set<Promise<void>>()
  let stopping = false

  const handleOne = (message: JsMsg) => {
    const tracer = tracerFor(bus.service)
    const handle = () => handleMessage(bus, options, { maxAttempts, backoff }, message)
    return tracer === null ? handle() : tracedDelivery(tracer, bus.ns.strip(message.subject), options.durable, message, handle)
  }

  const loop = (async () => {
    while (!stopping && messages) {
      for await (const message of messages) {
        const task = handleOne(message).catch((error: unknown) => {
          bus.logger.error({ err: error }, 'consumer handler crashed; message left for redelivery')
        })
        inFlight.add(task)
        void task.finally(() => inFlight.delete(task))
        if (inFlight.size >= concurrency) await Promise.race(inFlight)
        if (stopping) break
      }
      if (stopping) break
      // The iterator ended without a stop (consumer deleted, server restarted): open it again.
      await new Promise((resolve) => setTimeout(resolve, 500))
      messages = await bus.js.consumers
        .get(stream, options.durable)
        .then((c) => c.consume(pullOptions(concurrency)))
        .catch(() => undefined)
      if (!messages) await ensureConsumer(bus, stream, config).catch(() => undefined)
    }
    await Promise.all(inFlight)
    sendAcks()
  })()

  return {
    stream: options.stream,
    durable: options.durable,
    closed: loop,
    async stop() {
      stopping = true
      await messages?.close().catch(() => undefined)
      await loop
    },
  }
}

async function ensureConsumer(bus: ConsumerBus, stream: string, config: { durable_name: string } & Record<string, unknown>): Promise<void> {
  const existing = await bus.jsm.consumers.info(stream, config.durable_name).catch(() => undefined)
  if (existing) {
    const { durable_name: _durable, deliver_policy: _deliver, ...updatable } = config
    await bus.jsm.consumers.update(stream, config.durable_name, updatable).catch((error: unknown) => {
      bus.logger.warn({ err: error, durable: config.durable_name }, 'consumer settings not updated')
    })
    return
  }
  try {
    await bus.jsm.consumers.add(stream, config)
  } catch (error) {
    if (!isAlreadyCreated(error)) throw error
  }
}

/**
 * Moves a message to `dlq.<subject>` with the reason, then terminates it. If the dead-letter publish
 * itself fails, the message is nak'ed instead: nothing is dropped.
 */
async function deadLetter(bus: ConsumerBus, message: JsMsg, consumer: string, reason: string, body: string, messageId: string | null) {
  const subject = bus.ns.strip(message.subject)
  const letter = {
    version: 1 as const,
    subject,
    stream: message.info.stream,
    consumer,
    deliveryCount: message.info.deliveryCount,
    reason,
    failedAt: new Date().toISOString(),
    body,
    messageId,
  }
  try {
    await bus.publish(`dlq.${subject}`, deadLetterContract, letter, {
      messageId: `dlq:${message.info.stream}:${message.seq}:${consumer}`,
    })
    bus.logger.error({ subject, reason, deliveryCount: letter.deliveryCount }, 'message dead-lettered')
    bus.observer.deadLettered(consumer, subject)
    // No reason on the TERM: NATS 2.9 understands only a bare `+TERM` (the reason form came with 2.10) and
    // would leave the message pending, to be redelivered and dead-lettered again after every ack wait.
    message.term()
  } catch (error) {
    bus.logger.error({ err: error, subject }, 'dead-letter publish failed; message will be redelivered')
    message.nak(backoffDelay(message.info.deliveryCount))
  }
}

export const deadLetterSubject = (subject: string) => `dlq.${subject}`

/** One delivery: decoded, checked against the contract, handled; acked, retried later or dead-lettered. */
async function handleMessage<S extends TSchema>(
  bus: ConsumerBus,
  options: ConsumeOptions<S>,
  retry: { maxAttempts: number; backoff: BackoffOptions },
  message: JsMsg,
): Promise<void> {
  const { maxAttempts, backoff } = retry
  const deliveryCount = message.info.deliveryCount
  if (deliveryCount > 1) bus.observer.redelivered(options.durable)
  const messageId = message.headers?.get('Nats-Msg-Id') || null
  const body = decoder.decode(message.data)
  let payload: unknown
  try {
    payload = JSON.parse(body)
  } catch {
    return deadLetter(bus, message, options.durable, `body is not JSON`, body, messageId)
  }
  const validation = options.contract.validate(payload)
  if (!validation.ok) {
    return deadLetter(bus, message, options.durable, `contract violation: ${describeIssues(validation.issues)}`, body, messageId)
  }
  try {
    await options.handler(validation.value, {
      subject: bus.ns.strip(message.subject),
      deliveryCount,
      messageId,
      working: () => message.working(),
    })
    ackSoon(message, (error) => bus.logger.error({ err: error, subject: message.subject }, 'ack not sent; the message will be redelivered'))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    if (error instanceof RetryLaterError) {
      // Not ready yet (the handler bounds how long by the message's own data): no use of the budget.
      const delay = backoffDelay(deliveryCount, backoff)
      bus.logger.info({ subject: message.subject, deliveryCount, delayMs: delay, reason }, 'message not ready; it comes back later')
      message.nak(delay)
      return
    }
    if (isDependencyDown(error) && !(error instanceof PermanentError)) {
      // A dependency outage is no fault of the message: it waits, however long, and never uses the budget.
      const delay = backoffDelay(deliveryCount, backoff)
      bus.logger.warn({ subject: message.subject, deliveryCount, delayMs: delay, err: error }, 'dependency unavailable; the message waits for it')
      message.nak(delay)
      return
    }
    if (error instanceof PermanentError || deliveryCount >= maxAttempts) {
      const why = error instanceof PermanentError ? reason : `failed ${deliveryCount} times; last error: ${reason}`
      return deadLetter(bus, message, options.durable, why, body, messageId)
    }
    const delay = backoffDelay(deliveryCount, backoff)
    bus.logger.warn({ subject: message.subject, deliveryCount, delayMs: delay, err: error }, 'message failed; will retry')
    message.nak(delay)
  }
}
