import { connect } from '@nats-io/transport-node'
import type { NatsConnection } from '@nats-io/nats-core'
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream'
import type { TSchema, Static } from 'typebox'
import type { Contract } from '@signals/contracts'
import { AckedPublisher, type PublishResult } from './acked-publisher.ts'
import { ContractViolationError } from './errors.ts'
import { Namespace, ensureStreams, type StreamMaxBytes } from './topology.ts'
import { startConsumer, type ConsumerHandle, type ConsumeOptions } from './consumer.ts'
import { silentLogger, type BusLogger } from './bus-logger.ts'
import { natsServers, type NatsCredentialSettings } from './servers.ts'
import { noObserver, type BusObserver, type ConsumerState } from './bus-observer.ts'
import { tracedPublish } from './tracing.ts'
import { tracerFor } from '@signals/telemetry'
import { untilJetStreamReady } from './jetstream-ready.ts'

export type { BusLogger }

export interface ConnectBusOptions {
  /** One server URL, or several separated by commas (the nodes of a cluster); each may carry credentials. */
  url: string
  /** NATS_USER / NATS_PASSWORD / NATS_TOKEN, for credentials kept out of the URL. */
  credentials?: NatsCredentialSettings
  /** Connection name shown by the server (service name). */
  name: string
  namespace?: string
  logger?: BusLogger
  /** Servers each stream and bucket is stored on (BUS_REPLICAS; default 1, 3 on a three-node cluster). */
  replicas?: number
  /** Create or update the streams at connect (default true). */
  ensureTopology?: boolean
  /** Byte bounds this service sets on streams (others keep theirs); see ensureStreams. */
  streamMaxBytes?: StreamMaxBytes
  /** How long the first connection may take before start-up fails. */
  connectTimeoutMs?: number
}

export interface PublishOptions {
  /** Message id for the server's duplicate window: a resend with the same id is dropped. */
  messageId: string
  /** How long to wait for the server's ack before giving up (default 2000 ms). */
  timeoutMs?: number
}

const encoder = new TextEncoder()

export type { PublishResult }

export class Bus {
  readonly #consumers = new Set<ConsumerHandle>()
  readonly #publisher: AckedPublisher
  /** Told of redeliveries and dead letters (set by `observe`). */
  observer: BusObserver = noObserver

  constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    readonly ns: Namespace,
    readonly logger: BusLogger,
    /** Replica count for the streams and buckets this bus creates. */
    readonly replicas = 1,
    /** The service using this bus: names its spans' tracer. */
    readonly service = 'bus',
  ) {
    this.#publisher = new AckedPublisher(nc)
  }

  /** The namespaced subject for a contract subject. */
  subject(name: string): string {
    return this.ns.subject(name)
  }

  /** The namespaced stream name for a contract stream. */
  stream(name: string): string {
    return this.ns.stream(name)
  }

  /**
   * Validates `payload` against `contract` and publishes it; resolves only once JetStream has stored it
   * (or recognised it as a duplicate). Rejects with BusUnavailableError when the server does not answer.
   */
  async publish<S extends TSchema>(
    subject: string,
    contract: Contract<S>,
    payload: Static<S>,
    options: PublishOptions,
  ): Promise<PublishResult> {
    const problem = contract.problem(payload)
    if (problem !== null) throw new ContractViolationError(`refusing to publish on ${subject}: ${problem}`)
    return this.publishRaw(this.subject(subject), encoder.encode(JSON.stringify(payload)), options)
  }

  /** Publishes bytes on an already namespaced subject (dead letters keep the original body as it was). */
  publishRaw(subject: string, data: Uint8Array, options: PublishOptions): Promise<PublishResult> {
    const timeoutMs = options.timeoutMs ?? 2_000
    const tracer = tracerFor(this.service)
    if (tracer === null) return this.#publisher.publish(subject, data, options.messageId, timeoutMs)
    return tracedPublish(tracer, this.ns.strip(subject), options.messageId, (traceparent) => this.#publisher.publish(subject, data, options.messageId, timeoutMs, traceparent))
  }

  /** Starts a durable consume loop; see ConsumeOptions. The handle stops it; `close()` stops all. */
  async consume<S extends TSchema>(options: ConsumeOptions<S>): Promise<ConsumerHandle> {
    const handle = await startConsumer(this, options)
    this.#consumers.add(handle)
    void handle.closed.finally(() => this.#consumers.delete(handle))
    return handle
  }

  /** Reports redeliveries and dead letters to `observer` from now on (one observer per bus). */
  observe(observer: BusObserver): void {
    this.observer = observer
  }

  /**
   * Each consumer this bus runs, as the server counts it now (one JetStream request each, in parallel); a
   * consumer the server does not answer for within `timeoutMs` is left out.
   */
  async consumerStates(timeoutMs = 2_000): Promise<ConsumerState[]> {
    const states = await Promise.all(
      [...this.#consumers].map(async ({ stream, durable }): Promise<ConsumerState | null> => {
        const info = await withTimeout(this.jsm.consumers.info(this.stream(stream), durable), timeoutMs).catch(() => null)
        return info && { stream, durable, pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered }
      }),
    )
    return states.filter((state) => state !== null)
  }

  /** True while the connection is up (not closed, not reconnecting). */
  isConnected(): boolean {
    return !this.nc.isClosed() && !this.nc.isDraining() && this.nc.info !== undefined && !this.#reconnecting
  }

  #reconnecting = false

  /** @internal tracks connection status for isConnected(). */
  watchStatus(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === 'disconnect' || status.type === 'reconnecting') this.#reconnecting = true
        if (status.type === 'reconnect') this.#reconnecting = false
        if (status.type === 'disconnect' || status.type === 'reconnect') {
          this.logger.warn({ status: status.type }, `nats ${status.type}`)
        }
      }
    })().catch(() => undefined)
  }

  /** Round trip to the server within `timeoutMs`; false when it does not answer. */
  async ping(timeoutMs = 1_000): Promise<boolean> {
    if (this.nc.isClosed()) return false
    const flushed = this.nc.flush().then(
      () => true,
      () => false,
    )
    return (await withTimeout(flushed, timeoutMs)) ?? false
  }

  /** Stops every consumer (letting in-flight handlers finish), then drains the connection. */
  async close(): Promise<void> {
    await Promise.all([...this.#consumers].map((consumer) => consumer.stop()))
    if (!this.nc.isClosed()) {
      await this.nc.drain().catch(() => this.nc.close())
    }
    this.#publisher.close()
  }
}

/** `promise`, or null once `timeoutMs` passed. */
async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Connects with unlimited reconnects (to any of the servers) and ensures the streams exist. */
export async function connectBus(options: ConnectBusOptions): Promise<Bus> {
  const logger = options.logger ?? silentLogger
  const replicas = options.replicas ?? 1
  const { servers, credentials } = natsServers(options.url, options.credentials)
  const nc = await connect({
    servers,
    ...credentials,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    timeout: options.connectTimeoutMs ?? 5_000,
    pingInterval: 10_000,
    // The client otherwise builds an Error (with a stack) for every request to improve async traces: a
    // measurable share of an accepted webhook's CPU (see docs/benchmarks/ingest.md).
    noAsyncTraces: true,
  })
  try {
    // A single server stores an update to R3 without replicating anything: refuse it here, plainly.
    if (replicas > 1 && !nc.info?.cluster) {
      throw new Error(`BUS_REPLICAS is ${replicas} but the NATS server at ${nc.getServer()} is not in a cluster; use 1`)
    }
    const ns = new Namespace(options.namespace ?? '')
    // Right after a cluster forms (or while it elects a leader) JetStream answers "not yet": waited out here,
    // not a failed start (issue 21).
    const jsm = await untilJetStreamReady(
      'the streams ensured',
      async () => {
        const manager = await jetstreamManager(nc)
        if (options.ensureTopology ?? true) await ensureStreams(manager, ns, { replicas, logger, maxBytes: options.streamMaxBytes })
        return manager
      },
      { logger, nc },
    )
    const bus = new Bus(nc, jetstream(nc), jsm, ns, logger, replicas, options.name)
    bus.watchStatus()
    return bus
  } catch (error) {
    await nc.close()
    throw error
  }
}
