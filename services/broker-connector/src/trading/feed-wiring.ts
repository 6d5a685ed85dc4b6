import type { FastifyInstance } from 'fastify'
import type { FeedManager } from '../feeds/feed-manager.ts'
import type { Trading } from './create-trading.ts'
import type { KillSwitch } from './kill-switch/kill-switch.ts'
import { serveEntries } from './handoffs/entry-handoff.ts'
import { serveFlattens } from './handoffs/flatten-handoff.ts'
import { serveKills } from './handoffs/kill-handoff.ts'
import { startFlattenSweep } from './positions/flatten-sweep.ts'

/**
 * Trading on the feeds this instance holds: it listens to every session (fills, opens, stops, the status
 * sentence), answers the records, flattens and kill switches other instances hand to the holder of a
 * user's feed, and sweeps the flattens due here. The feeds know nothing of trading; this is the one place
 * that ties them, in this direction only.
 */
export function tradeOnFeeds(app: FastifyInstance, feeds: FeedManager, trading: Trading, killSwitch: KillSwitch, flattenSweepMs: number): void {
  feeds.addHooks({
    onEvent: (userId, event) => trading.onEvent(userId, event),
    onSessionOpen: (userId, session, venue) => trading.onSessionOpen(userId, session, venue),
    onSessionStopping: (userId, session) => trading.onSessionStopping(userId, session),
    statusNote: (userId) => trading.statusNote(userId),
    onFeedDropped: (userId) => trading.keeper.sessionClosed(userId),
  })
  const { instanceId } = app.feedOwners
  const holds = (userId: string) => feeds.holds(userId)
  const runFlattens = (userId: string) => trading.flattens.run(userId)
  const handoffs = [
    serveEntries(app.bus, instanceId, holds, trading.settle, app.log),
    serveFlattens(app.bus, instanceId, holds, runFlattens, app.log),
    serveKills(app.bus, instanceId, holds, (userId) => killSwitch.runHere(userId), app.log),
  ]
  let stopSweep: (() => Promise<void>) | undefined
  app.addHook('onReady', async () => {
    stopSweep = startFlattenSweep({ db: app.db, logger: app.log, everyMs: flattenSweepMs, holds: (userId) => feeds.session(userId) !== null, run: runFlattens })
  })
  // onClose hooks run in reverse registration order: before the feeds close their sessions.
  app.addHook('onClose', async () => {
    await stopSweep?.()
    for (const handoff of handoffs) handoff.unsubscribe()
  })
}
