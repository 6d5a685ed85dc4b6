import type { Database, Kysely } from '@signals/db'
import type { BrokerSession } from './broker/broker-adapter.ts'
import type { Logger } from './consumers/close-trades.ts'
import type { Config } from './config.ts'
import { LiveEntryFlow, type EntryFlow, type EntryRouter, type RecordRef } from './entry-flow.ts'
import type { RecordOutcome } from './entry/settle-records.ts'
import type { SessionSource } from './entry/plan-record.ts'
import { openTradeContracts } from './repositories/broker-trades.ts'
import { flattenPositions } from './consumers/flatten.ts'
import { TradeKeeper } from './trades/trade-keeper.ts'
import { SweepTimer } from './entry/sweep-timer.ts'

/** The live-trading parts of one connector instance and the session hooks that feed them. */
export interface Trading {
  entryFlow: EntryFlow
  keeper: TradeKeeper
  /** FeedManager `onSessionOpen`: trades from the snapshot's fills, then records left placing reconciled. */
  onSessionOpen(userId: string, session: BrokerSession): Promise<void>
  /** FeedManager `onEvent`. */
  onEvent: TradeKeeper['onEvent']
  /** Settles records with this instance's sessions (records another instance forwarded here). */
  settle(records: readonly RecordRef[], lastAttempt: boolean): Promise<RecordOutcome[]>
  /** The sweep of records left unsettled (null when the live entry flow is replaced: tests of intake alone). */
  sweep: SweepTimer | null
}

type TradingConfig = Pick<
  Config,
  'ENTRY_MAX_AGE_MS' | 'ENTRY_SESSION_WAIT_MS' | 'ENTRY_PARALLELISM' | 'ENTRY_OUTCOME_GRACE_MS' | 'ENTRY_SWEEP_INTERVAL_MS' | 'BROKER_REQUEST_TIMEOUT_MS'
>

/**
 * The grace after an unknown outcome: as configured, but never under twice the broker's request time-out,
 * nor under the age limit. The send came after the alert, so once the grace is over the alert is past the
 * age limit: a record failed "outcome unknown" could not have been sent again anyway.
 */
const outcomeGraceMs = (config: Pick<Config, 'ENTRY_OUTCOME_GRACE_MS' | 'BROKER_REQUEST_TIMEOUT_MS' | 'ENTRY_MAX_AGE_MS'>) =>
  Math.max(config.ENTRY_OUTCOME_GRACE_MS, config.ENTRY_MAX_AGE_MS, 2 * config.BROKER_REQUEST_TIMEOUT_MS)

export function createTrading(
  db: Kysely<Database>,
  config: TradingConfig,
  sessions: SessionSource,
  logger: Logger,
  makeEntryFlow?: (db: Kysely<Database>) => EntryFlow,
  router: EntryRouter | null = null,
): Trading {
  const keeper = new TradeKeeper({ db, logger })
  const live = new LiveEntryFlow({
    db,
    sessions,
    logger,
    cashBalanceOf: (userId, session) => keeper.cashBalanceOf(userId, session),
    // A hard daily-loss refusal: every contract the user holds open trades in is flattened.
    flattenAll: async (userId, session) => {
      const contracts = await openTradeContracts(db, userId)
      await flattenPositions(contracts.map((contractId) => ({ user_id: userId, contract_id: contractId })), { session: () => session }, logger)
    },
    maxAlertAgeMs: config.ENTRY_MAX_AGE_MS,
    sessionWaitMs: config.ENTRY_SESSION_WAIT_MS,
    outcomeGraceMs: outcomeGraceMs(config),
    parallelism: config.ENTRY_PARALLELISM,
  }, router)
  // A received record past both limits can no longer be sent, so its message had its chance.
  const receivedAfterMs = Math.max(config.ENTRY_MAX_AGE_MS, config.ENTRY_SESSION_WAIT_MS)
  return {
    entryFlow: makeEntryFlow ? makeEntryFlow(db) : live,
    keeper,
    onEvent(userId, event) {
      keeper.onEvent(userId, event)
      live.onEvent(userId, event)
    },
    settle: (records, lastAttempt) => live.settle(records, lastAttempt),
    sweep: makeEntryFlow ? null : new SweepTimer(() => live.sweep(receivedAfterMs), config.ENTRY_SWEEP_INTERVAL_MS, logger),
    async onSessionOpen(userId, session) {
      await keeper.sessionOpened(userId, session)
      await live.reconcileUser(userId, session)
    },
  }
}
