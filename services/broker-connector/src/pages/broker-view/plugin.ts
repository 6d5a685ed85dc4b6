import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody, type BrokerViewRequest } from '@signals/contracts'
import { normalizeRiskEngineConfig } from '@signals/risk-engine'
import { BrokerError } from '../../feeds/broker/broker-adapter.ts'
import { accountStateOf } from '../../trading/entry/account-state.ts'
import { loadAccountRows } from '../../repositories/account-rows.ts'
import { riskConfigOf } from '../../repositories/broker-view.ts'
import { BrokerOrdersQuery, BrokerOrdersResponse, BrokerPositionsResponse } from '../schemas/broker-view.ts'
import { alertStepsRoutes } from './alert-steps-route.ts'
import { readOrders, readPositions } from './read-session.ts'
import { routeView, serveViews, type ViewRead } from './view-handoff.ts'

export interface BrokerViewPluginOptions {
  /** Whether this instance holds feeds (it then answers the views of the users it holds). */
  feeds: boolean
  timeoutMs: number
  /** A session the broker has sent nothing (not even a heartbeat) for this long is read, but said `stale`. */
  staleAfterMs: number
}

const NO_SESSION_HERE: ViewRead = {
  outcome: 'no_session',
  stale: false,
  detail: 'the broker connection is down: the broker cannot be asked now',
  positions: null,
  orders: null,
}

/**
 * What the broker says (issue 25, item 3; docs/decisions/broker-connector.md, "Broker view"):
 * `GET /api/broker/positions` and `GET /api/broker/orders`, read from the user's session by the instance
 * holding it; `GET /api/alerts/:id/steps`. A user without a session gets 200 with `state: no_session`.
 */
const brokerViewRoutes: FastifyPluginAsyncTypebox<BrokerViewPluginOptions> = async (app, options) => {
  const { owners, instanceId } = app.feedOwners
  const readHere = async (request: BrokerViewRequest): Promise<ViewRead> => {
    const session = options.feeds ? app.feeds.session(request.userId) : null
    if (!session) return NO_SESSION_HERE
    const silentMs = Date.now() - session.lastHeardAt().getTime()
    const stale = silentMs > options.staleAfterMs
    const detail = stale ? `the broker has sent nothing for ${Math.round(silentMs / 1000)} s: what it said last may be out of date` : null
    try {
      const scoped = { db: app.db, userId: request.userId, session, scope: app.trading.scopeOf(session) }
      if (request.what === 'orders') return { outcome: 'read', stale, detail, positions: null, orders: await readOrders(scoped, request.limit) }
      const reading = { db: app.db, userId: request.userId, session, scope: app.trading.scopeOf(session), realizedPnl: app.trading.keeper.realizedPnlOf(request.userId, session) }
      return { outcome: 'read', stale, detail, positions: await readPositions(reading), orders: null }
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      return { outcome: 'unavailable', stale, detail: `the broker did not answer: ${error.message}`, positions: null, orders: null }
    }
  }
  const deps = { bus: app.bus, owners, instanceId: options.feeds ? instanceId : null, timeoutMs: options.timeoutMs, readHere, logger: app.log }
  if (options.feeds) {
    const handoff = serveViews(app.bus, instanceId, (userId) => app.feeds.holds(userId), readHere, app.log)
    app.addHook('onClose', async () => handoff.unsubscribe())
  }
  const stateOf = (read: ViewRead) => (read.outcome === 'read' ? (read.stale ? ('stale' as const) : ('live' as const)) : read.outcome)

  app.get(
    '/api/broker/positions',
    {
      schema: {
        tags: ['broker'],
        summary: "The account's positions with unrealized pnl and working orders as the broker session says, and the broker's balance beside ours",
        response: { 200: BrokerPositionsResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const [read, computed] = await Promise.all([routeView(deps, { version: 1, userId, what: 'positions', limit: 1 }), computedFigures(userId)])
      return { success: true as const, state: stateOf(read), detail: read.detail, session: read.positions, computed }
    },
  )

  app.get(
    '/api/broker/orders',
    {
      schema: {
        tags: ['broker'],
        summary: "The account's latest orders as the broker session says (fills, cancels, rejections with the broker's words)",
        querystring: BrokerOrdersQuery,
        response: { 200: BrokerOrdersResponse, 400: ErrorBody, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const read = await routeView(deps, { version: 1, userId: request.identity.userId, what: 'orders', limit: request.query.limit })
      return { success: true as const, state: stateOf(read), detail: read.detail, session: read.orders }
    },
  )

  /** Our own balance and day's realized pnl, as the risk engine counts them when the broker tells none. */
  async function computedFigures(userId: string) {
    const config = normalizeRiskEngineConfig(await riskConfigOf(app.db, userId))
    const rows = await loadAccountRows(app.db, [userId], [], new Map())
    const state = accountStateOf(rows, userId, config, null, new Date())
    return { balance: state.balance, todayRealizedPnl: state.todayRealizedPnl, startingBalance: String(config.account.startingBalance) }
  }
}

/** Registered after the feeds plugin (it reads the sessions held here). */
export const brokerViewPlugin = fp(
  async (app: FastifyInstance, options: BrokerViewPluginOptions) => {
    await app.register(brokerViewRoutes, options)
    await app.register(alertStepsRoutes)
  },
  { name: 'broker-view', dependencies: ['db', 'bus', 'feed-ownership', 'broker-trading'] },
)
