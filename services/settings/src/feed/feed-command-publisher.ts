import { Subjects, FeedCommandV1, contract, type FeedCommand } from '@signals/contracts'
import type { Bus, BusLogger } from '@signals/bus'
import type { Database, FeedCommandRow, Kysely } from '@signals/db'
import { lockUserFeedCommands, markPublished, purgePublishedCommands, unpublishedCommands, usersWithUnpublishedCommands } from '../repositories/feed-commands.ts'

const feedCommandContract = contract(FeedCommandV1)

const subjectFor = {
  start: Subjects.feedStart,
  stop: Subjects.feedStop,
  restart: Subjects.feedRestart,
} as const

function toFeedCommand(row: FeedCommandRow): FeedCommand {
  return {
    version: 1,
    commandId: row.command_id,
    userId: row.user_id,
    action: row.action,
    reason: row.reason,
    requestedAt: row.requested_at.toISOString(),
  }
}

export interface PublishOutcome {
  /** Command ids JetStream acknowledged in this call (or already had: same message id). */
  published: Set<string>
  /** False when another publisher held the user's lock (relay only: it does not wait). */
  attempted: boolean
  /** A publish was refused or timed out: the bus is likely down. */
  failed: boolean
}

/**
 * Publishes every unpublished command of one user, oldest first, each under its own command id as the
 * message id (a re-publish after a crash is dropped by the stream's duplicate window), and marks each as
 * it is acknowledged. Stops at the first failure so a later command never overtakes an earlier one.
 */
export async function publishPendingFeedCommands(
  db: Kysely<Database>,
  bus: Bus,
  userId: string,
  options: { wait: boolean; timeoutMs: number; logger: BusLogger },
): Promise<PublishOutcome> {
  const published = new Set<string>()
  let failed = false
  const attempted = await db.transaction().execute(async (trx) => {
    if (!(await lockUserFeedCommands(trx, userId, options.wait))) return false
    for (const row of await unpublishedCommands(trx, userId)) {
      try {
        await bus.publish(subjectFor[row.action], feedCommandContract, toFeedCommand(row), {
          messageId: row.command_id,
          timeoutMs: options.timeoutMs,
        })
      } catch (error) {
        options.logger.warn({ err: error, commandId: row.command_id, action: row.action }, 'feed command not published yet; the relay will retry')
        failed = true
        break
      }
      await markPublished(trx, row.id)
      published.add(row.command_id)
    }
    return true
  })
  return { published, attempted, failed }
}

/** How long a published command is kept (to see what was sent when); older ones are deleted. */
const PUBLISHED_COMMAND_RETENTION_MS = 7 * 24 * 60 * 60 * 1000
/** How often the relay deletes what outlived the retention. */
const PURGE_EVERY_MS = 60 * 60 * 1000

export interface FeedCommandRelay {
  /** One pass over every user with unpublished commands (tests call it directly). */
  runOnce(): Promise<number>
  /** Deletes commands published more than the retention before `now`; returns how many. */
  purgeOnce(now?: Date): Promise<number>
  stop(): Promise<void>
}

/**
 * Sends what the request path could not: commands left unpublished because the bus was down or the
 * process stopped between commit and publish. Every instance runs one; users another instance is busy
 * with are skipped, not waited for. Once an hour it also deletes commands published over a week ago, so
 * the outbox does not grow forever; unpublished ones are never deleted.
 */
export function startFeedCommandRelay(
  db: Kysely<Database>,
  bus: Bus,
  options: { intervalMs: number; timeoutMs: number; logger: BusLogger },
): FeedCommandRelay {
  let stopped = false
  let running: Promise<number> | undefined
  let timer: NodeJS.Timeout | undefined

  const runOnce = async (): Promise<number> => {
    let count = 0
    for (const userId of await usersWithUnpublishedCommands(db, 100)) {
      if (stopped) break
      const outcome = await publishPendingFeedCommands(db, bus, userId, { wait: false, timeoutMs: options.timeoutMs, logger: options.logger })
      count += outcome.published.size
      // The bus is not taking messages: the other users' commands would only wait out the same timeout.
      if (outcome.failed) break
    }
    if (count > 0) options.logger.info({ count }, 'feed command relay published queued commands')
    return count
  }

  const purgeOnce = (now = new Date()) => purgePublishedCommands(db, new Date(now.getTime() - PUBLISHED_COMMAND_RETENTION_MS))
  let lastPurgeAt = 0
  const pass = async (): Promise<number> => {
    const count = await runOnce()
    if (Date.now() - lastPurgeAt >= PURGE_EVERY_MS) {
      lastPurgeAt = Date.now()
      const purged = await purgeOnce()
      if (purged > 0) options.logger.info({ purged }, 'feed command relay deleted commands published over a week ago')
    }
    return count
  }

  const tick = () => {
    if (stopped) return
    running = pass()
      .catch((error: unknown) => {
        options.logger.warn({ err: error }, 'feed command relay pass failed; will retry')
        return 0
      })
      .finally(() => {
        running = undefined
        if (!stopped) timer = setTimeout(tick, options.intervalMs).unref()
      })
  }
  timer = setTimeout(tick, options.intervalMs).unref()

  return {
    runOnce,
    purgeOnce,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
