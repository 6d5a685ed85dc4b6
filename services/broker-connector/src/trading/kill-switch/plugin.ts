import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { isoOrNull } from '@signals/http-kit'
import { finishKillSwitch, recentKillSwitches } from '../../repositories/kill-switch.ts'
import { pressKillSwitch } from './press-kill-switch.ts'
import { routeKill, serveKills, type KillRun } from '../handoffs/kill-handoff.ts'
import { KillSwitchHistory, KillSwitchResponse } from '../../pages/schemas/kill-switch.ts'
import { killAtBroker } from './kill-at-broker.ts'

const CLOSE_REASON = 'You pressed the kill switch: every position was flattened and every working order cancelled at the broker.'

export interface KillSwitchPluginOptions {
  /** Whether this instance holds feeds (it then answers kill switches of the users it holds). */
  feeds: boolean
  timeoutMs: number
}

const eventOf = (row: { id: number; requested_at: Date; outcome: string; detail: string | null; finished_at: Date | null }) => ({
  id: String(row.id),
  requestedAt: row.requested_at.toISOString(),
  outcome: row.outcome as 'pending' | 'done' | 'incomplete' | 'no_session',
  detail: row.detail,
  finishedAt: isoOrNull(row.finished_at),
})

/**
 * `POST /api/kill-switch` (issue 25, item 2; docs/decisions/web.md): in one transaction auto-place is
 * switched off, the open trades are asked to exit durably (with why) and the use is recorded; then the
 * instance holding the user's session flattens every position and cancels every working order at the
 * broker, and the record keeps what it did. `GET /api/kill-switch`: the latest uses.
 */
const killSwitchRoutes: FastifyPluginAsyncTypebox<KillSwitchPluginOptions> = async (app, options) => {
  const { owners, instanceId } = app.feedOwners
  const runHere = async (userId: string): Promise<KillRun> => {
    const session = options.feeds ? app.feeds.session(userId) : null
    if (!session) return { outcome: 'no_session', detail: 'the broker connection is down: nothing could be flattened or cancelled at the broker now; the exits of your open trades are sent as soon as it is back' }
    return killAtBroker(app.db, app.trading.flattens, userId, session, app.trading.scopeOf(session))
  }
  const deps = { bus: app.bus, owners, instanceId: options.feeds ? instanceId : null, timeoutMs: options.timeoutMs, runHere, logger: app.log }
  if (options.feeds) {
    const relay = serveKills(app.bus, instanceId, (userId) => app.feedLeases.holds(owners.shardOf(userId)), runHere, app.log)
    app.addHook('onClose', async () => relay.unsubscribe())
  }

  app.post(
    '/api/kill-switch',
    {
      schema: {
        tags: ['kill switch'],
        summary: 'Flatten every position and cancel every working order at the broker, and switch auto-place off',
        response: { 200: KillSwitchResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const recorded = await pressKillSwitch(app.db, userId, CLOSE_REASON)
      request.log.warn({ killSwitchId: recorded.id }, 'kill switch pressed: auto-place off, flattening and cancelling at the broker')
      const run = await routeKill(deps, userId)
      const outcome = run.outcome === 'not_held' ? 'no_session' : run.outcome
      const finished = await finishKillSwitch(app.db, recorded.id, outcome, run.detail)
      request.log.warn({ killSwitchId: recorded.id, outcome }, 'kill switch carried out')
      return {
        success: true as const,
        autoPlaceOrders: false as const,
        killSwitch: eventOf({ id: recorded.id, requested_at: recorded.requested_at, outcome, detail: run.detail, finished_at: finished.finished_at }),
      }
    },
  )

  app.get(
    '/api/kill-switch',
    {
      schema: {
        tags: ['kill switch'],
        summary: "The signed-in user's latest uses of the kill switch, with what the broker did",
        response: { 200: KillSwitchHistory, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => ({ success: true as const, killSwitches: (await recentKillSwitches(app.db, request.identity.userId, 20)).map(eventOf) }),
  )
}

/** Registered after the feeds plugin (it answers with the sessions held here). */
export const killSwitchPlugin = fp(async (app: FastifyInstance, options: KillSwitchPluginOptions) => app.register(killSwitchRoutes, options), {
  name: 'kill-switch',
  dependencies: ['db', 'bus', 'feed-ownership', 'broker-trading'],
})
