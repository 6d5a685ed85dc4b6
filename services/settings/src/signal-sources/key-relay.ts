import type { KV } from '@nats-io/kv'
import { openBucket, type Bus, type BusLogger } from '@signals/bus'
import { Buckets, SignalSourceKeyV1, contract, type SignalSourceKey } from '@signals/contracts'
import type { Database, Kysely } from '@signals/db'
import { claimKeyChanges, deleteKeyChanges, liveSourceOfHash } from '../repositories/signal-source-keys.ts'

const keyContract = contract(SignalSourceKeyV1)
const BATCH = 100

export interface SignalSourceKeyRelay {
  /** Writes the bucket entry of every queued token hash from the rows as they are now; returns how many. */
  runOnce(): Promise<number>
  stop(): Promise<void>
}

/**
 * Keeps the SIGNAL_SOURCES bucket (what ingest checks a `/webhook/s/<token>` against) equal to Postgres:
 * each queued hash (the trigger on signal_sources queues every created, rotated-away or revoked one) is
 * recomputed, so the order of changes does not matter and a pass repeated after a crash does no harm.
 * A change leaves the queue only once the bucket took it.
 */
export function startSignalSourceKeyRelay(db: Kysely<Database>, bus: Bus, options: { intervalMs: number; logger: BusLogger }): SignalSourceKeyRelay {
  let bucket: Promise<KV> | undefined
  const open = () => {
    bucket ??= openBucket(bus, Buckets.signalSources).catch((error: unknown) => {
      bucket = undefined
      throw error
    })
    return bucket
  }

  const runOnce = async (): Promise<number> => {
    const kv = await open()
    let done = 0
    for (;;) {
      const count = await db.transaction().execute(async (trx) => {
        const changes = await claimKeyChanges(trx, BATCH)
        for (const hash of new Set(changes.map((change) => change.token_hash))) {
          const source = await liveSourceOfHash(trx, hash)
          if (source === undefined) {
            await kv.purge(hash)
            continue
          }
          const value: SignalSourceKey = { version: 1, sourceId: source.id, ownerUserId: source.owner_user_id }
          if (!keyContract.check(value)) throw new Error(`signal source ${source.id} does not fit SignalSourceKeyV1`)
          await kv.put(hash, JSON.stringify(value))
        }
        await deleteKeyChanges(trx, changes.map((change) => change.id))
        return changes.length
      })
      done += count
      if (count < BATCH) return done
    }
  }

  let running: Promise<unknown> = Promise.resolve()
  let stopped = false
  const timer = setInterval(() => {
    running = running.then(runOnce).catch((error: unknown) => options.logger.warn({ err: error }, 'signal source keys not written yet; the relay will retry'))
  }, options.intervalMs)
  timer.unref()

  return {
    runOnce: () => {
      const pass = running.then(runOnce)
      running = pass.catch(() => undefined)
      return pass
    },
    async stop() {
      if (stopped) return
      stopped = true
      clearInterval(timer)
      await running.catch(() => undefined)
    },
  }
}
