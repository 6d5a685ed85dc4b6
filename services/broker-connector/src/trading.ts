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
}

export function createTrading(
  db: Kysely<Database>,
  config: Pick<Config, 'ENTRY_MAX_AGE_MS' | 'ENTRY_SESSION_WAIT_MS' | 'ENTRY_PARALLELISM' | 'MAX_CONTRACTS_PER_ORDER' | 'MARKET_PRICE_MAX_AGE_MS'>,
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
    now: () => new Date(),
    maxAlertAgeMs: config.ENTRY_MAX_AGE_MS,
    sessionWaitMs: config.ENTRY_SESSION_WAIT_MS,
    parallelism: config.ENTRY_PARALLELISM,
    platformMaxContracts: config.MAX_CONTRACTS_PER_ORDER,
    marketPriceMaxAgeMs: config.MARKET_PRICE_MAX_AGE_MS,
  }, router)
  return {
    entryFlow: makeEntryFlow ? makeEntryFlow(db) : live,
    keeper,
    onEvent: (userId, event) => keeper.onEvent(userId, event),
    settle: (records, lastAttempt) => live.settle(records, lastAttempt),
    async onSessionOpen(userId, session) {
      await keeper.sessionOpened(userId, session)
      await live.reconcileUser(userId, session)
    },
  }
}
