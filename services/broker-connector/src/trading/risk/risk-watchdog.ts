import { add, parseDecimal, toFixed, tradingDayOf } from '@signals/instruments'
import { normalizeRiskEngineConfig, positionBreach, type AccountState } from '@signals/risk-engine'
import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession, type DayRealizedPnl } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { accountStateOf } from '../entry/account-state.ts'
import { loadAccountRows } from '../../repositories/account-rows.ts'
import { mapLimited } from '../entry/map-limited.ts'
import { withAccountLock } from '../../repositories/entry-locks.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import { SweepTimer } from '../entry/sweep-timer.ts'
import type { FlattenRunner } from '../positions/flatten-runner.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { noteCloseReason, raiseEquityPeak, recordHalt, watchedAccounts, type WatchedAccount } from '../../repositories/risk-halts.ts'
import { countBrokerRealized } from './day-realized.ts'
import type { HaltedEntries } from './halt-entries.ts'
import { markOpenPnl } from './open-pnl.ts'

export interface RiskWatchdogDeps {
  db: Kysely<Database>
  sessions: SessionSource
  flattens: FlattenRunner
  logger: Logger
  /** Where a session's broker ids live: its venue and account (noted as it opened). */
  scopeOf(session: BrokerSession): BrokerScope
  /** Halted accounts with an entry on its way are looked at again each pass. */
  haltedEntries: HaltedEntries
  /** The account's cash balance as the broker last told it, or null. */
  cashBalanceOf(userId: string, session: BrokerSession): string | null
  /** The account's realized pnl of the day as the broker last told it, or null (`countBrokerRealized`). */
  realizedPnlOf?(userId: string, session: BrokerSession): DayRealizedPnl | null
  /** A quote older than this does not price a position (MARKET_PRICE_MAX_AGE_MS). */
  maxPriceAgeMs: number
}

/** What one look at an account did. */
export type WatchOutcome = 'calm' | 'flattened' | 'unpriced' | 'failed'

/**
 * The risk watchdog (issue 20, item 6): every `RISK_WATCHDOG_MS`, for each account with open trades whose
 * session this instance holds (that session's account and venue: the user's trades elsewhere are not
 * priced, closed or flattened by it), the risk engine's limits with the open pnl of the broker's positions.
 * An open loss that reaches the hard daily loss limit, or takes equity to the trailing floor, halts the
 * session until 17:00 Chicago (written under the account's lock, in turn with its entry decisions), cancels
 * the account's working entry orders and flattens every position its trades are in (durable flatten
 * requests); the trades closed and the entries cancelled say why. A trade opened in a halted session is
 * flattened too, and a halted account with an entry on its way (sent just before the halt) is looked at
 * again each pass (`HaltedEntries`). A soft limit flattens nothing: the next entry is refused with the open
 * loss counted.
 * Positions that cannot be priced are left alone (flattening on a guess is worse) and logged; entries are
 * refused meanwhile.
 */
export class RiskWatchdog {
  readonly timer: SweepTimer

  constructor(
    private readonly deps: RiskWatchdogDeps,
    intervalMs: number,
  ) {
    this.timer = new SweepTimer(() => this.pass(), intervalMs, deps.logger, 'risk watchdog pass')
  }

  /** One look at every watched account held here: one query when nobody holds a trade. */
  async pass(now = new Date()): Promise<WatchOutcome[]> {
    const held = (await watchedAccounts(this.deps.db)).flatMap((account) => {
      const session = this.deps.sessions.session(account.user_id)
      return session && sameScope(this.deps.scopeOf(session), account.scope) ? [{ account, session }] : []
    })
    // One account's failure is logged and left to the next pass: it never ends the pass early, so a pass is
    // over only when every account's watch is (two passes never act on one user at once).
    const outcomes = await mapLimited(held, 8, ({ account, session }) =>
      this.#watch(account, session, now).catch((error: unknown): WatchOutcome => {
        this.deps.logger.warn({ err: error, userId: account.user_id }, 'risk watchdog: account not checked; tried again on the next pass')
        return 'failed'
      }),
    )
    await this.deps.haltedEntries.recheck().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'risk watchdog: halted accounts\' entries not looked at; tried again on the next pass'))
    return outcomes
  }

  async #watch(account: WatchedAccount, session: BrokerSession, now: Date): Promise<WatchOutcome> {
    const { db, logger } = this.deps
    const { user_id: userId, scope } = account
    const rows = await loadAccountRows(db, [userId], [], new Map([[userId, scope]]))
    const halt = rows.lastHalt.get(userId)
    if (halt && tradingDayOf(halt.at) === tradingDayOf(now)) {
      const why = halt.reason ?? 'the hard daily loss limit was reached'
      await this.#flatten({ userId, session, scope }, why, `Trading is halted for this session (${why}): a trade opened meanwhile is flattened.`)
      return 'flattened'
    }
    const open = await markOpenPnl(session, rows.heldContracts.get(userId) ?? [], { now, maxPriceAgeMs: this.deps.maxPriceAgeMs }).catch((error: unknown) => {
      if (error instanceof BrokerError) return { kind: 'unknown' as const, reason: `the broker's positions could not be read (${error.message})` }
      throw error
    })
    if (open.kind === 'unknown') {
      logger.warn({ userId, reason: open.reason }, 'risk watchdog: open positions cannot be priced; limits checked again on the next pass')
      return 'unpriced'
    }
    const config = normalizeRiskEngineConfig(account.risk_config)
    const state = countBrokerRealized(accountStateOf(rows, userId, config, this.deps.cashBalanceOf(userId, session), now, open.openPnl), this.deps.realizedPnlOf?.(userId, session) ?? null, now)
    const breach = positionBreach(config, state)
    if (breach === null) {
      // A floor trailing open profit follows the highest equity seen, not only the equity of the moment.
      if (config.trailingDrawdown.mode === 'intraday_unrealized') await raiseEquityPeak(db, userId, equityOf(state))
      return 'calm'
    }
    // In turn with the account's entry decisions: one decided after the halt sees it and is refused.
    await withAccountLock(db, userId, (connection) => recordHalt(connection, { userId, code: breach.code, reason: breach.cause, openPnl: open.openPnl }))
    logger.warn({ userId, code: breach.code, openPnl: open.openPnl }, `risk watchdog: ${breach.reason}`)
    await this.#flatten({ userId, session, scope }, breach.cause, breach.reason)
    return 'flattened'
  }

  /**
   * The account's working entries cancelled (none may fill after the halt), then every contract of its open
   * trades flattened durably, now, with why kept on the records and the trades.
   */
  async #flatten(held: { userId: string; session: BrokerSession; scope: BrokerScope }, cause: string, closeReason: string): Promise<void> {
    const { userId, session, scope } = held
    await noteCloseReason(this.deps.db, userId, scope, closeReason)
    await this.deps.flattens.flattenEverything(userId, session, cause)
  }
}

const sameScope = (a: BrokerScope, b: BrokerScope) => a.broker === b.broker && a.environment === b.environment && a.accountId === b.accountId

const equityOf = (state: AccountState) => toFixed(add(parseDecimal(state.balance), parseDecimal(state.openPnl)), 2)
