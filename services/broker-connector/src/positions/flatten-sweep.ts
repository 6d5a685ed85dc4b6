import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../consumers/close-trades.ts'
import { usersWithDueFlattens } from '../repositories/flatten-requests.ts'
import type { FlattenRun } from './flatten-runner.ts'

/**
 * Every `everyMs`, the flattens due (a broker wait over, or one no relay reached) of users whose sessions
 * this instance holds are carried out. One sweep at a time. Returns the stop.
 */
export function startFlattenSweep(options: {
  db: Kysely<Database>
  logger: Logger
  everyMs: number
  holds(userId: string): boolean
  run(userId: string): Promise<FlattenRun>
}): () => void {
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
  return () => clearInterval(timer)
}
