import type { Database, Kysely } from '@signals/db'
import type { BrokerSession, BrokerVenue } from '../feeds/broker/broker-adapter.ts'
import type { Logger } from '../shared/logger.ts'
import type { Config } from '../config.ts'
import { LiveEntryFlow, type EntryFlow, type EntryRouter, type RecordRef } from './entry/entry-flow.ts'
import type { RecordOutcome } from './entry/settle-records.ts'
import type { PlanDeps, SessionSource } from './entry/plan-record.ts'
import { openDiscrepancyIn } from '../repositories/position-discrepancies.ts'
import { tradesAwaitingExitFill } from '../repositories/flatten-requests.ts'
import { FlattenRunner } from './positions/flatten-runner.ts'
import { TradeKeeper } from './trades/trade-keeper.ts'
import { SweepTimer } from './entry/sweep-timer.ts'
import { NOT_RECONCILED, PositionReconciler } from './positions/position-reconciler.ts'
import type { BrokerScope } from '../repositories/broker-trades.ts'
import { SessionScopes } from './session-scopes.ts'
import { HaltedEntries } from './risk/halt-entries.ts'
import type { EntryObserver } from './entry/entry-observer.ts'
import { requestReversalClose, type ReversalClose } from '../repositories/reversal-close.ts'

/** How long switching live trading off waits for the pending exits to be sent before the feed stops anyway. */
const STOP_FLATTEN_WAIT_MS = 10_000

/** The live-trading parts of one connector instance and the session hooks that feed them. */
export interface Trading {
  entryFlow: EntryFlow
  keeper: TradeKeeper
  /** Where a session's broker ids live (its venue and account): what it reads and acts on is that account's. */
  scopeOf(session: BrokerSession): BrokerScope
  /** A halt's cancellation of the account's working entries, looked at again while an entry is on its way. */
  haltedEntries: HaltedEntries
  /** Carries out the users' pending flattens with this instance's sessions. */
  flattens: FlattenRunner
  /**
   * FeedManager `onSessionOpen`: trades from the snapshot's fills, then the pending exits, then records
   * left placing reconciled; all before the session is handed out.
   */
  onSessionOpen(userId: string, session: BrokerSession, venue: BrokerVenue): Promise<void>
  /** FeedManager `onSessionStopping` (live trading switched off): the pending exits are sent first, for a bounded time. */
  onSessionStopping(userId: string, session: BrokerSession): Promise<void>
  /** FeedManager `onEvent`. */
  onEvent: TradeKeeper['onEvent']
  /** Settles records with this instance's sessions (records another instance forwarded here). */
  settle(records: readonly RecordRef[]): Promise<RecordOutcome[]>
  /** The sweep of records left unsettled (null when the live entry flow is replaced: tests of intake alone). */
  sweep: SweepTimer | null
  /** Reconciles the broker's positions and working orders with our trades (on session open and on its timer). */
  reconciler: PositionReconciler
  /** The timer of the reconciliation (every `POSITION_RECONCILE_MS`). */
  reconcileTimer: SweepTimer
  /** Why entries in the contract wait (the broker and our trades differ, or nothing was compared yet), else null. */
  positionDifference: NonNullable<PlanDeps['positionDifference']>
  /** The feed status's sentence for the user (events set aside, differences with the broker), or null. */
  statusNote(userId: string): string | null
}

type TradingConfig = Pick<
  Config,
  | 'ENTRY_MAX_AGE_MS'
  | 'ENTRY_SESSION_WAIT_MS'
  | 'ENTRY_PARALLELISM'
  | 'ENTRY_HANDOFF_SLICE'
  | 'EXIT_PLANS_ENABLED'
  | 'ENTRY_OUTCOME_GRACE_MS'
  | 'ENTRY_SWEEP_INTERVAL_MS'
  | 'BROKER_REQUEST_TIMEOUT_MS'
  | 'MAX_CONTRACTS_PER_ORDER'
  | 'MARKET_PRICE_MAX_AGE_MS'
  | 'POSITION_RECONCILE_MS'
>

/**
 * A reversal's close: durable (written on the deciding connection, `db`), then carried out now with the
 * session this instance holds (the entry waits for its fill; the flatten runs on pool connections of its own, not awaited).
 */
function reversalCloser(flattens: FlattenRunner, logger: Logger) {
  return async (db: Kysely<Database>, close: ReversalClose): Promise<{ othersHold: number }> => {
    const asked = await requestReversalClose(db, close)
    if (asked.othersHold > 0) return asked
    flattens.run(close.userId).catch((error: unknown) => logger.warn({ userId: close.userId, err: error }, 'reversal close not carried out now; the flatten sweep tries again'))
    return asked
  }
}

/**
 * The grace after an unknown outcome: as configured, but never under twice the broker's request time-out,
 * nor under the age limit. The send came after the alert, so once the grace is over the alert is past the
 * age limit: a record failed "outcome unknown" could not have been sent again anyway.
 */
const outcomeGraceMs = (config: Pick<Config, 'ENTRY_OUTCOME_GRACE_MS' | 'BROKER_REQUEST_TIMEOUT_MS' | 'ENTRY_MAX_AGE_MS'>) =>
  Math.max(config.ENTRY_OUTCOME_GRACE_MS, config.ENTRY_MAX_AGE_MS, 2 * config.BROKER_REQUEST_TIMEOUT_MS)

/** Never placed on positions nobody compared with the broker's: a session whose passes all failed waits. */
const positionDifferenceOf = (reconciler: PositionReconciler) => async (db: Kysely<Database>, userId: string, scope: BrokerScope, contractId: number) =>
  reconciler.reconciled(userId) ? openDiscrepancyIn(db, userId, scope, contractId) : NOT_RECONCILED

export function createTrading(
  db: Kysely<Database>,
  config: TradingConfig,
  sessions: SessionSource,
  logger: Logger,
  makeEntryFlow?: (db: Kysely<Database>) => EntryFlow,
  router: EntryRouter | null = null,
  observer?: EntryObserver,
  clock: () => Date = () => new Date(),
): Trading {
  const scopes = new SessionScopes()
  const scopeOf = (session: BrokerSession) => scopes.of(session)
  const haltedEntries = new HaltedEntries({ db, logger, sessions })
  const flattens = new FlattenRunner({ db, logger, sessions, scopeOf, haltedEntries })
  const closeSoon = (userId: string) => void flattens.run(userId).catch((error: unknown) => logger.warn({ userId, err: error }, 'late fill close not carried out now; the flatten sweep tries again'))
  const keeper = new TradeKeeper({ db, logger, closeSoon })
  const reconciler = new PositionReconciler({ db, logger, sessions, applyListedFills: (userId, session, fills) => keeper.applyListedFills(userId, session, fills), coverStopGaps: (userId) => keeper.coverGaps(userId) })
  const positionDifference = positionDifferenceOf(reconciler)
  const live = new LiveEntryFlow({
    db,
    sessions,
    logger,
    scopeOf,
    cashBalanceOf: (userId, session) => keeper.cashBalanceOf(userId, session),
    realizedPnlOf: (userId, session) => keeper.realizedPnlOf(userId, session),
    workingEntryRecords: (userId) => keeper.workingEntryRecords(userId),
    // A hard daily-loss refusal halts the account: working entries cancelled, every contract of its open trades flattened (durably).
    flattenAll: async (userId, session, cause) => void (await flattens.flattenEverything(userId, session, cause)),
    closeForReversal: reversalCloser(flattens, logger),
    maxAlertAgeMs: config.ENTRY_MAX_AGE_MS,
    sessionWaitMs: config.ENTRY_SESSION_WAIT_MS,
    outcomeGraceMs: outcomeGraceMs(config),
    parallelism: config.ENTRY_PARALLELISM,
    slice: config.ENTRY_HANDOFF_SLICE,
    exitPlansEnabled: config.EXIT_PLANS_ENABLED,
    platformMaxContracts: config.MAX_CONTRACTS_PER_ORDER,
    marketPriceMaxAgeMs: config.MARKET_PRICE_MAX_AGE_MS,
    sessionClock: clock,
    positionDifference,
    observer,
    flattens,
  }, router)
  // A received record past both limits can no longer be sent, so its message had its chance.
  const receivedAfterMs = Math.max(config.ENTRY_MAX_AGE_MS, config.ENTRY_SESSION_WAIT_MS)
  return {
    entryFlow: makeEntryFlow ? makeEntryFlow(db) : live,
    keeper,
    scopeOf,
    haltedEntries,
    flattens,
    onEvent(userId, event) {
      keeper.onEvent(userId, event)
      live.onEvent(userId, event)
    },
    settle: (records) => live.settle(records),
    sweep: makeEntryFlow ? null : new SweepTimer(() => live.sweep(receivedAfterMs), config.ENTRY_SWEEP_INTERVAL_MS, logger),
    reconciler,
    reconcileTimer: new SweepTimer(() => reconciler.reconcileAll(), config.POSITION_RECONCILE_MS, logger, 'reconciliation of positions'),
    positionDifference,
    statusNote(userId) {
      const notes = [keeper.statusNote(userId), reconciler.statusNote(userId)].filter((note) => note !== null)
      return notes.length === 0 ? null : notes.join('; ')
    },
    async onSessionOpen(userId, session, venue) {
      const scope = scopes.opened(session, venue)
      await keeper.sessionOpened(userId, session, venue)
      await flattens.run(userId, { session, force: true })
      await live.reconcileUser(userId, session)
      // Last: the exits and records above have settled what they can, so what differs now is a difference.
      await reconciler.sessionOpened({ userId, session, scope })
    },
    onSessionStopping: (userId, session) => exitsBeforeStopping({ db, flattens, keeper }, userId, session),
  }
}

/** The exits are sent, then their fills awaited (the session is about to close), within one bound. */
async function exitsBeforeStopping({ db, flattens, keeper }: { db: Kysely<Database>; flattens: FlattenRunner; keeper: TradeKeeper }, userId: string, session: BrokerSession): Promise<void> {
  const until = Date.now() + STOP_FLATTEN_WAIT_MS
  let timer: NodeJS.Timeout | undefined
  const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_FLATTEN_WAIT_MS)))
  const sendThenSettle = async () => {
    await flattens.run(userId, { session, force: true })
    while (Date.now() < until && (await tradesAwaitingExitFill(db, userId)) > 0) {
      await keeper.idle()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await Promise.race([sendThenSettle(), bounded]).finally(() => clearTimeout(timer))
}
