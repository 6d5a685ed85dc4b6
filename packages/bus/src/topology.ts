import { DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig } from '@nats-io/jetstream'
import { nanos } from '@nats-io/nats-core'
import { isAlreadyCreated } from './api-errors.ts'
import { Streams } from '@signals/contracts'
import { silentLogger, type BusLogger } from './bus-logger.ts'
import { updateStream } from './replicas.ts'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** Maps contract names to a namespace, so tests can share one server without their streams overlapping. */
export class Namespace {
  constructor(readonly prefix: string) {}

  subject(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name
  }

  stream(name: string): string {
    return this.prefix ? `${this.prefix.toUpperCase()}_${name}` : name
  }

  /** The contract subject of a namespaced one (`t1.alerts.entry` -> `alerts.entry`). */
  strip(subject: string): string {
    return this.prefix && subject.startsWith(`${this.prefix}.`) ? subject.slice(this.prefix.length + 1) : subject
  }
}

/** Stream settings beyond name and subjects. The duplicate window is what drops a resent message id. */
const streamSettings: Record<keyof typeof Streams, { maxAgeMs: number; duplicateWindowMs: number }> = {
  alerts: { maxAgeMs: 7 * DAY, duplicateWindowMs: 10 * MINUTE },
  feeds: { maxAgeMs: DAY, duplicateWindowMs: 2 * MINUTE },
  intake: { maxAgeMs: 7 * DAY, duplicateWindowMs: 10 * MINUTE },
  notifications: { maxAgeMs: DAY, duplicateWindowMs: 10 * MINUTE },
  deadLetters: { maxAgeMs: 30 * DAY, duplicateWindowMs: 2 * MINUTE },
}

type StreamKey = keyof typeof Streams
/** A byte bound per stream (`max_bytes`; discard old: the oldest messages go first). */
export type StreamMaxBytes = Partial<Record<StreamKey, number>>

const MiB = 1024 * 1024
/**
 * Each stream's byte bound unless configured (issue 22: every refused webhook kept up to 64 KiB with no
 * bound). Modest on purpose: NATS 2.9 reserves a bounded stream's max_bytes against the server's storage
 * when it is created, for every namespace (each test file has its own).
 */
export const DEFAULT_STREAM_MAX_BYTES: Readonly<Record<StreamKey, number>> = { alerts: 512 * MiB, feeds: 128 * MiB, intake: 256 * MiB, notifications: 64 * MiB, deadLetters: 128 * MiB }

/**
 * Each stream's configuration in `ns`, stored on `replicas` servers (BUS_REPLICAS; 1 on a single server),
 * bounded by `maxBytes` or the default.
 */
export function streamConfigs(ns: Namespace, replicas = 1, maxBytes: StreamMaxBytes = {}): (Partial<StreamConfig> & { name: string; key: StreamKey })[] {
  return (Object.keys(Streams) as StreamKey[]).map((key) => ({
    key,
    name: ns.stream(Streams[key].name),
    subjects: Streams[key].subjects.map((subject) => ns.subject(subject)),
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(streamSettings[key].maxAgeMs),
    duplicate_window: nanos(streamSettings[key].duplicateWindowMs),
    num_replicas: replicas,
    max_bytes: maxBytes[key] ?? DEFAULT_STREAM_MAX_BYTES[key],
  }))
}

export interface EnsureStreamsOptions {
  replicas?: number
  logger?: BusLogger
  /** Bounds this service is configured with; a stream not named keeps the bound it has (or the default). */
  maxBytes?: StreamMaxBytes
}

/**
 * Creates each stream, or updates it to the current settings (a replica count the server refuses is
 * logged, see updateStream). Creating a stream with more replicas than the cluster has fails start-up.
 * Safe to run from every instance at once.
 */
export async function ensureStreams(jsm: JetStreamManager, ns: Namespace, options: EnsureStreamsOptions = {}): Promise<void> {
  const logger = options.logger ?? silentLogger
  const configured = options.maxBytes ?? {}
  for (const { key, ...config } of streamConfigs(ns, options.replicas, configured)) {
    const name = config.name
    const current = await jsm.streams.info(name).then(
      (info) => info.config,
      () => undefined,
    )
    if (current !== undefined) {
      // Only a service configured with a bound changes it: the others keep what the stream has, so services
      // with different settings do not take turns resetting it. An unbounded stream gets the default.
      const keep = configured[key] === undefined && current.max_bytes > 0
      await updateStream(jsm, keep ? { ...config, max_bytes: current.max_bytes } : config, logger)
      continue
    }
    try {
      await jsm.streams.add(config)
    } catch (error) {
      // Another instance created it first.
      if (!isAlreadyCreated(error)) throw error
      await updateStream(jsm, config, logger)
    }
  }
}
