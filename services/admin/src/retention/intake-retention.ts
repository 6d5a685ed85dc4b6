import type { FastifyInstance } from 'fastify'
import type { Database, Kysely } from '@signals/db'
import { deleteIntakeBefore } from '../repositories/intake.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** Rows one statement deletes: short locks and a small WAL burst, however far behind the log is. */
const DELETE_BATCH = 5_000

export interface IntakeRetentionOptions {
  /** INTAKE_LOG_RETENTION_DAYS: entries received longer ago are deleted. */
  retentionDays: number
  /** INTAKE_LOG_PRUNE_INTERVAL_SECONDS: how often the log is pruned (and once at start). */
  intervalSeconds: number
}

/** Deletes intake-log entries older than the retention period, batch by batch; returns how many. */
export async function pruneIntakeLog(db: Kysely<Database>, retentionDays: number, options: { now?: Date; batchSize?: number } = {}): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - retentionDays * DAY_MS)
  const batchSize = options.batchSize ?? DELETE_BATCH
  let total = 0
  for (;;) {
    const deleted = await deleteIntakeBefore(db, cutoff, batchSize)
    total += deleted
    if (deleted < batchSize) return total
  }
}

/**
 * The intake log's retention (issue 22): every admin instance prunes on start and then periodically; the
 * batches skip rows another instance is deleting, so two never wait on each other. A failed run is logged
 * and tried again at the next interval. The timer stops, and a running prune is awaited, on close.
 */
export async function intakeRetentionPlugin(app: FastifyInstance, options: IntakeRetentionOptions): Promise<void> {
  let running: Promise<void> | undefined
  const prune = () => {
    running ??= pruneIntakeLog(app.db, options.retentionDays)
      .then((deleted) => {
        if (deleted > 0) app.log.info({ deleted, retentionDays: options.retentionDays }, 'intake-log entries past retention deleted')
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'intake log not pruned; trying again at the next interval'))
      .finally(() => (running = undefined))
  }
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    prune()
    timer = setInterval(prune, options.intervalSeconds * 1000)
    timer.unref()
  })
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await running
  })
}
