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

/** Each stream's configuration in `ns`, stored on `replicas` servers (BUS_REPLICAS; 1 on a single server). */
export function streamConfigs(ns: Namespace, replicas = 1): (Partial<StreamConfig> & { name: string })[] {
  return (Object.keys(Streams) as (keyof typeof Streams)[]).map((key) => ({
    name: ns.stream(Streams[key].name),
    subjects: Streams[key].subjects.map((subject) => ns.subject(subject)),
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(streamSettings[key].maxAgeMs),
    duplicate_window: nanos(streamSettings[key].duplicateWindowMs),
    num_replicas: replicas,
  }))
}

export interface EnsureStreamsOptions {
  replicas?: number
  logger?: BusLogger
}

/**
 * Creates each stream, or updates it to the current settings (a replica count the server refuses is
 * logged, see updateStream). Creating a stream with more replicas than the cluster has fails start-up.
 * Safe to run from every instance at once.
 */
export async function ensureStreams(jsm: JetStreamManager, ns: Namespace, options: EnsureStreamsOptions = {}): Promise<void> {
  const logger = options.logger ?? silentLogger
  for (const config of streamConfigs(ns, options.replicas)) {
    const name = config.name
    const exists = await jsm.streams.info(name).then(
      () => true,
      () => false,
    )
    if (exists) {
      await updateStream(jsm, config, logger)
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
