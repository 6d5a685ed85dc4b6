import type { Database, Kysely } from '@signals/db'
import type { Bus } from '@signals/bus'
import type { Logger } from '../../shared/logger.ts'
import type { FeedManager } from '../../feeds/feed-manager.ts'
import type { FeedOwners } from '../../feeds/ownership/owners.ts'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { finishKillSwitch, recentKillSwitches } from '../../repositories/kill-switch.ts'
import { pressKillSwitch } from './press-kill-switch.ts'
import { routeKill, type KillRun } from '../handoffs/kill-handoff.ts'
import { killAtBroker } from './kill-at-broker.ts'
import type { FlattenRunner } from '../positions/flatten-runner.ts'

const CLOSE_REASON = 'You pressed the kill switch: every position was flattened and every working order cancelled at the broker.'

interface KillSwitchEvent {
  id: string
  requestedAt: string
  outcome: 'pending' | 'done' | 'incomplete' | 'no_session'
  detail: string | null
  finishedAt: string | null
}

export interface KillSwitch {
  /** Records the press (auto-place off, exits asked for, durably), then flattens and cancels at the broker through the holder of the user's feed. */
  press(userId: string, logger: Logger): Promise<KillSwitchEvent>
  /** The latest uses, newest first. */
  recent(userId: string, limit: number): Promise<KillSwitchEvent[]>
  /** The broker's part, with the session this instance holds (the handoff answers other instances with it). */
  runHere(userId: string): Promise<KillRun>
}

export interface KillSwitchDeps {
  db: Kysely<Database>
  bus: Bus
  owners: FeedOwners
  /** This instance, when it holds feeds; null for an instance without feeds. */
  instanceId: string | null
  feeds: FeedManager | null
  flattens: FlattenRunner
  scopeOf(session: BrokerSession): BrokerScope
  timeoutMs: number
  logger: Logger
}

const eventOf = (row: { id: number; requested_at: Date; outcome: string; detail: string | null; finished_at: Date | null }): KillSwitchEvent => ({
  id: String(row.id),
  requestedAt: row.requested_at.toISOString(),
  outcome: row.outcome as KillSwitchEvent['outcome'],
  detail: row.detail,
  finishedAt: row.finished_at === null ? null : row.finished_at.toISOString(),
})

/**
 * The kill switch (issue 25, item 2; docs/decisions/web.md): in one transaction auto-place is switched off,
 * the open trades are asked to exit durably (with why) and the use is recorded; then the instance holding
 * the user's session flattens every position and cancels every working order at the broker, and the record
 * keeps what it did.
 */
export function killSwitchOf(deps: KillSwitchDeps): KillSwitch {
  const runHere = async (userId: string): Promise<KillRun> => {
    const session = deps.feeds?.session(userId) ?? null
    if (!session) return { outcome: 'no_session', detail: 'the broker connection is down: nothing could be flattened or cancelled at the broker now; the exits of your open trades are sent as soon as it is back' }
    return killAtBroker(deps.db, deps.flattens, userId, session, deps.scopeOf(session))
  }
  return {
    runHere,
    async press(userId, logger) {
      const recorded = await pressKillSwitch(deps.db, userId, CLOSE_REASON)
      logger.warn({ killSwitchId: recorded.id }, 'kill switch pressed: auto-place off, flattening and cancelling at the broker')
      const run = await routeKill({ ...deps, runHere }, userId)
      const outcome = run.outcome === 'not_held' ? 'no_session' : run.outcome
      const finished = await finishKillSwitch(deps.db, recorded.id, outcome, run.detail)
      logger.warn({ killSwitchId: recorded.id, outcome }, 'kill switch carried out')
      return eventOf({ id: recorded.id, requested_at: recorded.requested_at, outcome, detail: run.detail, finished_at: finished.finished_at })
    },
    async recent(userId, limit) {
      return (await recentKillSwitches(deps.db, userId, limit)).map(eventOf)
    },
  }
}
