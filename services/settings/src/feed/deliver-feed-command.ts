import type { FastifyInstance } from 'fastify'
import type { FeedCommandRow } from '@signals/db'
import { isPublished } from '../repositories/feed-commands.ts'
import { publishPendingFeedCommands } from './feed-command-publisher.ts'

export interface FeedCommandOutcome {
  action: FeedCommandRow['action']
  commandId: string
  delivery: 'sent' | 'queued'
}

/**
 * Called after the transaction that queued `command` committed: publishes the user's queued commands in
 * order and says whether this one reached JetStream. Nothing here can undo the committed change, so a
 * failure (bus or database) leaves the command queued for the relay and is reported as `queued`.
 */
export async function deliverFeedCommand(app: FastifyInstance, command: FeedCommandRow, timeoutMs: number): Promise<FeedCommandOutcome> {
  let delivered = false
  try {
    const { published } = await publishPendingFeedCommands(app.db, app.bus, command.user_id, { wait: true, timeoutMs, logger: app.log })
    delivered = published.has(command.command_id) || (await isPublished(app.db, command.id))
  } catch (error) {
    app.log.warn({ err: error, commandId: command.command_id }, 'feed command left queued for the relay')
  }
  return { action: command.action, commandId: command.command_id, delivery: delivered ? 'sent' : 'queued' }
}
