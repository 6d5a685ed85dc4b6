import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import type { Database, Kysely } from '@signals/db'
import type { Config } from '../config.ts'
import type { EntryFlow } from './entry/entry-flow.ts'
import { createTrading, type Trading } from './create-trading.ts'
import { entryRouter } from './handoffs/entry-handoff.ts'
import { flattenRouter } from './handoffs/flatten-handoff.ts'
import { waitForSession } from './positions/flatten-runner.ts'
import type { FlattenDispatch } from './positions/flatten-dispatch.ts'
import { RiskWatchdog } from './risk/risk-watchdog.ts'
import { entryMetrics } from './entry-metrics.ts'
import { allOf } from './entry/entry-observer.ts'
import { OrderTraces } from './tracing/order-traces.ts'
import { DailyFlatten } from './risk/daily-flatten.ts'
import { NewsFlatten } from './risk/news-flatten.ts'
import { LimitTimeouts } from './entry/limit-timeouts.ts'
import { TrailingStops } from './trails/trailing-stops.ts'
import { killSwitchOf, type KillSwitch } from './kill-switch/kill-switch.ts'
import { tradeOnFeeds } from './feed-wiring.ts'

declare module 'fastify' {
  interface FastifyInstance {
    trading: Trading & {
      /** A result alert's flattens, handed to the instance holding each user's session. */
      flattenDispatch: FlattenDispatch
      /** Open positions against the hard limits (null in an instance without feeds). */
      watchdog: RiskWatchdog | null
      /** The session rules' daily flatten (null in an instance without feeds). */
      dailyFlatten: DailyFlatten | null
      /** The session rules' flatten at the start of a news blackout (null in an instance without feeds). */
      newsFlatten: NewsFlatten | null
      /** Limit entries cancelled at their `limit_timeout` (null in an instance without feeds). */
      limitTimeouts: LimitTimeouts | null
      /** Trailing stops moved with the market (null in an instance without feeds). */
      trailingStops: TrailingStops | null
      /** The kill switch: flatten, cancel and auto-place off. */
      killSwitch: KillSwitch
    }
  }
}

export interface TradingPluginOptions {
  config: Pick<
    Config,
    | 'ENTRY_MAX_AGE_MS'
    | 'ENTRY_SESSION_WAIT_MS'
    | 'ENTRY_PARALLELISM'
    | 'ENTRY_HANDOFF_SLICE'
    | 'EXIT_PLANS_ENABLED'
    | 'ENTRY_FORWARD_TIMEOUT_MS'
    | 'ENTRY_OUTCOME_GRACE_MS'
    | 'ENTRY_SWEEP_INTERVAL_MS'
    | 'BROKER_REQUEST_TIMEOUT_MS'
    | 'MAX_CONTRACTS_PER_ORDER'
    | 'MARKET_PRICE_MAX_AGE_MS'
    | 'RISK_WATCHDOG_MS'
    | 'POSITION_RECONCILE_MS'
    | 'DAILY_FLATTEN_CHECK_MS'
    | 'LIMIT_TIMEOUT_CHECK_MS'
    | 'TRAILING_STOP_CHECK_MS'
    | 'TRAILING_STOP_MIN_GAP_MS'
    | 'FLATTEN_SWEEP_MS'
  >
  /** Whether this instance holds feeds (its sessions come from `app.feeds`, registered before this plugin). */
  feeds: boolean
  /** Replaces the live entry flow (tests of intake alone). */
  entryFlow?: (db: Kysely<Database>) => EntryFlow
  /** The clock the session rules judge by (default the system clock; tests set it). */
  clock?: () => Date
}

/**
 * The live-trading parts (entry flow, trade keeper, flattens, session hooks). Entry records and flattens of
 * users whose feeds another instance holds are sent to it (docs/decisions/feed-ownership.md).
 */
export const tradingPlugin = fp(
  async (app: FastifyInstance, options: TradingPluginOptions) => {
    // Sessions live in the feed manager; an instance without feeds has none (its entries go to the holder).
    if (options.feeds && !app.hasDecorator('feeds')) throw new Error('the feeds plugin is registered before trading')
    const feeds = options.feeds ? app.feeds : null
    const sessions = { session: (userId: string) => feeds?.session(userId) ?? null, opening: (userId: string) => feeds?.opening(userId) ?? false }
    const { owners, instanceId } = app.feedOwners
    const router = entryRouter(app.bus, owners, options.feeds ? instanceId : null, options.config.ENTRY_FORWARD_TIMEOUT_MS)
    // Metrics of the orders, and (tracing on) each order's fills put in the trace of its alert.
    const orderTraces = new OrderTraces(app.serviceName)
    const trading = createTrading(app.db, options.config, sessions, app.log, options.entryFlow, router, allOf(entryMetrics(app.metrics), orderTraces), options.clock)
    const flattenDispatch = flattenRouter({
      bus: app.bus,
      owners,
      instanceId: options.feeds ? instanceId : null,
      timeoutMs: options.config.ENTRY_FORWARD_TIMEOUT_MS,
      runHere: (userId) => trading.flattens.run(userId),
      waitForSession: (userIds) => waitForSession(app.db, userIds),
      logger: app.log,
    })
    // Open positions against the hard daily loss limit and the floor (docs/decisions/risk-engine.md); only
    // an instance holding feeds holds sessions.
    const watchdog = options.feeds
      ? new RiskWatchdog(
          {
            db: app.db,
            sessions,
            flattens: trading.flattens,
            logger: app.log,
            maxPriceAgeMs: options.config.MARKET_PRICE_MAX_AGE_MS,
            scopeOf: trading.scopeOf,
            haltedEntries: trading.haltedEntries,
            cashBalanceOf: (userId, session) => trading.keeper.cashBalanceOf(userId, session),
            realizedPnlOf: (userId, session) => trading.keeper.realizedPnlOf(userId, session),
          },
          options.config.RISK_WATCHDOG_MS,
        )
      : null
    const onEvent: typeof trading.onEvent = (userId, event) => {
      trading.onEvent(userId, event)
      if (event.type === 'fill') orderTraces.onFill(event.fill)
    }
    // The session rules' daily flatten: only an instance holding feeds holds sessions.
    const flattenDeps = { db: app.db, sessions, flattens: trading.flattens, logger: app.log, scopeOf: trading.scopeOf, clock: options.clock ?? (() => new Date()) }
    const dailyFlatten = options.feeds ? new DailyFlatten(flattenDeps, options.config.DAILY_FLATTEN_CHECK_MS) : null
    const newsFlatten = options.feeds ? new NewsFlatten(flattenDeps, options.config.DAILY_FLATTEN_CHECK_MS) : null
    // A `market` timeout re-sizes the rest as the entry flow sizes (same limits, same market price age).
    const remainderSizing = {
      scopeOf: trading.scopeOf,
      cashBalanceOf: (userId: string, session: Parameters<typeof trading.keeper.cashBalanceOf>[1]) => trading.keeper.cashBalanceOf(userId, session),
      realizedPnlOf: (userId: string, session: Parameters<typeof trading.keeper.cashBalanceOf>[1]) => trading.keeper.realizedPnlOf(userId, session),
      platformMaxContracts: options.config.MAX_CONTRACTS_PER_ORDER,
      marketPriceMaxAgeMs: options.config.MARKET_PRICE_MAX_AGE_MS,
      workingEntryRecords: (userId: string) => trading.keeper.workingEntryRecords(userId),
      positionDifference: trading.positionDifference,
    }
    const limitTimeouts = options.feeds ? new LimitTimeouts({ db: app.db, sessions, logger: app.log, clock: flattenDeps.clock, sizing: remainderSizing }, options.config.LIMIT_TIMEOUT_CHECK_MS) : null
    // Trailing stops follow the market from the quotes of the sessions held here (docs/decisions/targets-breakeven.md).
    const trailingStops = options.feeds && options.config.EXIT_PLANS_ENABLED
      ? new TrailingStops({ db: app.db, sessions: { session: sessions.session, heldUsers: () => feeds?.connectedUsers() ?? [] }, logger: app.log, maxAgeMs: options.config.MARKET_PRICE_MAX_AGE_MS, minGapMs: options.config.TRAILING_STOP_MIN_GAP_MS }, options.config.TRAILING_STOP_CHECK_MS)
      : null
    const killSwitch = killSwitchOf({ db: app.db, bus: app.bus, owners, instanceId: feeds ? instanceId : null, feeds, flattens: trading.flattens, scopeOf: trading.scopeOf, timeoutMs: options.config.ENTRY_FORWARD_TIMEOUT_MS, logger: app.log })
    app.decorate('trading', { ...trading, onEvent, flattenDispatch, watchdog, dailyFlatten, newsFlatten, limitTimeouts, trailingStops, killSwitch })
    if (feeds) tradeOnFeeds(app, feeds, { ...trading, onEvent }, killSwitch, options.config.FLATTEN_SWEEP_MS)
    // The sweep of records left unsettled (docs/decisions/broker-connector.md, "Money safety").
    app.addHook('onReady', async () => {
      trading.sweep?.start()
      watchdog?.timer.start()
      dailyFlatten?.timer.start()
      newsFlatten?.timer.start()
      limitTimeouts?.timer.start()
      trailingStops?.timer.start()
      // The reconciliation with the broker (same document, "Reconciliation with the broker"): only an instance with sessions.
      if (options.feeds) trading.reconcileTimer.start()
    })
    // onClose hooks run in reverse registration order: stopped before the db plugin closes.
    app.addHook('onClose', async () => {
      await trading.sweep?.stop()
      await watchdog?.timer.stop()
      await dailyFlatten?.timer.stop()
      await newsFlatten?.timer.stop()
      await limitTimeouts?.timer.stop()
      await trailingStops?.timer.stop()
      await trading.reconcileTimer.stop()
    })
  },
  { name: 'broker-trading', dependencies: ['db', 'bus', 'feed-ownership', 'metrics'] },
)
