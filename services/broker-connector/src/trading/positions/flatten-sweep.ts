import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../../shared/logger.ts'
import { usersWithDueFlattens } from '../../repositories/flatten-requests.ts'
import type { FlattenRun } from './flatten-runner.ts'

/**
 * Every `everyMs`, the flattens due (a broker wait over, or one no handoff reached) of users whose sessions
 * this instance holds are carried out. One sweep at a time. Returns the stop, which waits for a sweep
 * under way (the instance is closing: its database pool must outlive it).
 */
export function startFlattenSweep(options: {
  db: Kysely<Database>
  logger: Logger
  everyMs: number
  holds(userId: string): boolean
  run(userId: string): Promise<FlattenRun>
}): () => Promise<void> {
  let running: Promise<void> | null = null
  const sweep = async () => {
    const users = (await usersWithDueFlattens(options.db)).filter(options.holds)
    await Promise.all(users.map((userId) => options.run(userId)))
  }
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((error: unknown) => options.logger.warn({ err: error }, 'pending flattens not swept (database unavailable?)'))
      .finally(() => (running = null))
  }, options.everyMs)
  return async () => {
    clearInterval(timer)
    await running
  }
}
