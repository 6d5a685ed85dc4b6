import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import { isLive } from '../../repositories/feeds.ts'
import { openTradeContracts, type BrokerScope } from '../../repositories/broker-trades.ts'
import { LIVE_TRADING_OFF, flattenDone, flattenWaits, flattensWaitFor, pendingFlattens, requestFlattens, type PendingFlatten } from '../../repositories/flatten-requests.ts'
import { ConcurrencyLimit } from '../../shared/concurrency-limit.ts'
import { SerialQueues } from '../../shared/serial-queues.ts'
import type { HaltedEntries } from '../risk/halt-entries.ts'
import { carryOutFlatten } from './carry-out.ts'

/**
 * done: nothing of the user's is left to flatten; waiting: some flatten waits (its reason is kept). A close
 * already sent and only looked for (its outcome unknown) is not waiting: nothing of it is left to send.
 */
export type FlattenRun = 'done' | 'waiting'

const CONNECTION_DOWN = 'the broker connection is down: the exit is sent to the broker as soon as it is back'

/** Flattens that cannot be tried (no session for the user) say why: live trading off, or the connection down. */
export async function waitForSession(db: Kysely<Database>, userIds: readonly string[]): Promise<void> {
  for (const userId of userIds) await flattensWaitFor(db, [userId], (await isLive(db, userId)) ? CONNECTION_DOWN : LIVE_TRADING_OFF)
}

/** A close sent (a partial close, a source's exit not joined by a wider exit since) whose outcome is only looked for. */
const onlyLookedFor = (flatten: PendingFlatten) => flatten.part_sent_at !== null && (flatten.close_part !== null || flatten.source_scoped)

/** Why an attempt failed, in words for the trader, how long to wait before the next, and whether it counts as a try (its back-off). */
function waitAfter(error: BrokerError, attempts: number): { reason: string; waitMs: number; counted?: false } {
  const backoffMs = Math.min(300_000, 2_000 * 2 ** Math.min(attempts, 8))
  const seconds = (ms: number) => `${Math.ceil(ms / 1000)} s`
  if (error.kind === 'rate_limited' || error.kind === 'captcha') {
    const waitMs = Math.max(error.retryAfterMs ?? backoffMs, 1_000)
    return { reason: `waiting for the broker: ${error.message}; the exit is sent after the wait (${seconds(waitMs)})`, waitMs }
  }
  // A wait of our own (nothing sent: a close on its way, closes-on-their-way.ts), looked at again soon. Not a
  // try: a minute of such waits would otherwise put the exit's next broker failure at the longest back-off.
  if (error.kind === 'unavailable' && error.retryAfterMs !== null) return { reason: `${error.message}; looked at again in ${seconds(error.retryAfterMs)}`, waitMs: error.retryAfterMs, counted: false }
  if (error.kind === 'unavailable') return { reason: `the broker did not answer the exit (${error.message}); tried again in ${seconds(backoffMs)}`, waitMs: backoffMs }
  return { reason: `the broker refused the exit: ${error.message}; tried again in ${seconds(backoffMs)}`, waitMs: backoffMs }
}

/**
 * Carries out flatten requests with the user's broker session, at the instance holding it: when an exit
 * is asked (handed here), when the session opens (before it is handed out), before live trading stops it,
 * and when a wait is over (the sweep). One user's runs go one after another; only the holder has the
 * session, so no two instances send a user's flatten. A request stays until the broker took it, with why it
 * waits on the trades it concerns.
 */
export class FlattenRunner {
  readonly #queues = new SerialQueues()
  /** Users' runs at once (each mostly waits on its broker; a thousand at once would drain the database pool). */
  readonly #limit: ConcurrencyLimit

  constructor(
    private readonly deps: {
      db: Kysely<Database>
      logger: Logger
      sessions: SessionSource
      scopeOf(session: BrokerSession): BrokerScope
      haltedEntries: HaltedEntries
      now?: () => Date
      maxConcurrent?: number
    },
  ) {
    this.#limit = new ConcurrencyLimit(deps.maxConcurrent ?? 16)
  }

  /**
   * A halt of the session's account (a hard daily-loss refusal, the risk watchdog's): our entry orders still
   * working there are cancelled in every contract, their records saying `risk halt: <cause>` (a limit entry
   * must not fill after it); then every contract the user holds open trades in on the account is flattened:
   * durably asked (result `Session End`), and carried out now with `session` (`HaltedEntries` follows up
   * on entries still on their way).
   */
  async flattenEverything(userId: string, session: BrokerSession, cause: string): Promise<FlattenRun> {
    await this.deps.haltedEntries.halted(userId, session, cause)
    const signalAt = new Date().toISOString()
    const contracts = await openTradeContracts(this.deps.db, userId, this.deps.scopeOf(session))
    await requestFlattens(this.deps.db, contracts.map((open) => ({ userId, contract: open.contract, brokerContractId: open.broker_contract_id, side: null, alertId: null, result: 'Session End' as const, signalExitPrice: null, signalAt })))
    return this.run(userId, { session, force: true })
  }

  /**
   * The user's pending flattens, with `session` (a session being opened) or the one this instance holds.
   * `force` tries every one now (a new session, a stop); otherwise a flatten waits out its broker wait.
   */
  run(userId: string, options: { session?: BrokerSession | null; force?: boolean } = {}): Promise<FlattenRun> {
    const work = () => this.#limit.run(() => this.#run(userId, options.session ?? this.deps.sessions.session(userId), options.force ?? false))
    return this.#queues.run(userId, work)
  }

  async #run(userId: string, session: BrokerSession | null, force: boolean): Promise<FlattenRun> {
    const { db } = this.deps
    const pending = await pendingFlattens(db, userId)
    if (pending.length === 0) return 'done'
    if (!session) {
      await waitForSession(db, [userId])
      return 'waiting'
    }
    const now = (this.deps.now ?? (() => new Date()))()
    let waiting = false
    for (const flatten of pending) {
      if (!force && flatten.next_attempt_at > now) waiting = true
      else if (!(await this.#attempt(session, flatten)) && !onlyLookedFor(flatten)) waiting = true
    }
    return waiting ? 'waiting' : 'done'
  }

  async #attempt(session: BrokerSession, flatten: PendingFlatten): Promise<boolean> {
    try {
      const outcome = await carryOutFlatten(this.deps.db, session, this.deps.scopeOf(session), flatten)
      await flattenDone(this.deps.db, flatten, outcome)
      this.deps.logger.info({ userId: flatten.user_id, contract: flatten.contract, outcome }, 'flatten carried out')
      return true
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      const { reason, waitMs, counted } = waitAfter(error, flatten.attempts)
      await flattenWaits(this.deps.db, flatten, reason, waitMs, counted)
      this.deps.logger.warn({ userId: flatten.user_id, contract: flatten.contract, kind: error.kind, reason }, 'flatten not carried out yet')
      return false
    }
  }

  /** Waits for every run started so far (tests, shutdown). */
  async idle(): Promise<void> {
    await this.#queues.idle()
  }
}
