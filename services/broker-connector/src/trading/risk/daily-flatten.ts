import { dueDailyFlatten, normalizeRiskEngineConfig } from '@signals/risk-engine'
import type { Database, Kysely } from '@signals/db'
import type { Logger } from '../../shared/logger.ts'
import type { BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import { SweepTimer } from '../entry/sweep-timer.ts'
import type { FlattenRunner } from '../positions/flatten-runner.ts'
import type { BrokerScope } from '../../repositories/broker-trades.ts'
import { claimDailyFlatten, dailyFlattenAccounts, markDailyFlattenDone } from '../../repositories/daily-flattens.ts'
import { noteCloseReason } from '../../repositories/risk-halts.ts'

export interface DailyFlattenDeps {
  db: Kysely<Database>
  sessions: SessionSource
  flattens: Pick<FlattenRunner, 'flattenEverything'>
  logger: Logger
  /** Where a session's broker ids live: the trades flattened are that account's. */
  scopeOf(session: BrokerSession): BrokerScope
  /** The session rules' clock (tests set it). */
  clock: () => Date
}

/**
 * The daily flatten of the session rules (`sessionRules.dailyFlattenAt`): each pass, for every user whose
 * session this instance holds, once the exchange clock has passed the user's time in the current trading
 * day, the day is claimed in Postgres (one row per user and trading day, so two instances or a restart
 * never flatten twice) and the account is flattened with the durable flatten machinery (working entries
 * cancelled, positions closed with result `Session End`, the trades saying why). A connector that was down
 * at the time flattens when it is back, the same trading day (docs/decisions/risk-engine.md, "Session rules").
 */
export class DailyFlatten {
  readonly timer: SweepTimer

  constructor(
    private readonly deps: DailyFlattenDeps,
    intervalMs: number,
  ) {
    this.timer = new SweepTimer(() => this.pass(), intervalMs, deps.logger, 'daily flatten pass')
  }

  /**
   * One look at every account with a daily flatten time (each user's primary, the account their session
   * trades; the claim stays per user until sessions are keyed by account): the user ids flattened.
   */
  async pass(now = this.deps.clock()): Promise<string[]> {
    const flattened: string[] = []
    for (const user of await dailyFlattenAccounts(this.deps.db)) {
      const session = this.deps.sessions.session(user.user_id)
      const flattenAt = normalizeRiskEngineConfig(user.risk_config).sessionRules.dailyFlattenAt
      if (!session || flattenAt === null) continue
      const day = dueDailyFlatten(flattenAt, now)
      if (day === null || !(await claimDailyFlatten(this.deps.db, user.user_id, day, flattenAt))) continue
      try {
        const cause = `the daily flatten at ${flattenAt} exchange time (America/Chicago)`
        await noteCloseReason(this.deps.db, user.user_id, this.deps.scopeOf(session), `Closed by ${cause}.`)
        await this.deps.flattens.flattenEverything(user.user_id, session, cause)
        await markDailyFlattenDone(this.deps.db, user.user_id, day)
        flattened.push(user.user_id)
      } catch (error) {
        // Left claimed but not done: taken again a minute on.
        this.deps.logger.warn({ err: error, userId: user.user_id }, 'daily flatten failed; tried again on a later pass')
      }
    }
    return flattened
  }
}
