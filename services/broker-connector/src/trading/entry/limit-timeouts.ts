import type { Database, Kysely } from '@signals/db'
import { isDone, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Logger } from '../../shared/logger.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
import { claimLimitEntry, dueLimitEntries, markLimitEntryDone, noteCancelAsked, releaseLimitEntry, type DueLimitEntry } from '../../repositories/limit-entry-timeouts.ts'
import { remainderSentBefore, sendRemainderAtMarket, type RemainderSizing } from './limit-to-market.ts'
import { orderTagOf } from './order-plan.ts'
import { OUTCOME_UNKNOWN } from '../../repositories/entry-records.ts'
import type { SessionSource } from './plan-record.ts'
import { SweepTimer } from './sweep-timer.ts'

export interface LimitTimeoutDeps {
  db: Kysely<Database>
  sessions: SessionSource
  logger: Logger
  /** The clock deadlines are judged by (tests set it). */
  clock: () => Date
  /** The entry flow's sizing, for a remainder sent at the market; absent, a `market` timeout only cancels. */
  sizing?: RemainderSizing
}

/** How long after its deadline an entry whose send's outcome is unknown is still looked for. */
const UNKNOWN_LOOKED_FOR_MS = 24 * 60 * 60_000

/** Records still deciding or sending: their order may not be listed yet. */
const SENDING = new Set(['received', 'placing'])

/**
 * `limit_timeout` (issue 24, item 6; docs/decisions/limit-entry-timeout.md): each pass, every limit entry
 * whose deadline has passed, of a user whose session this instance holds, is claimed in Postgres (so a
 * restart or another instance acts once) and its entry order, found by its tag, cancelled if still working.
 * Only a `market` timeout places anything (its unfilled rest, once: limit-to-market.ts): an entry filled
 * before the cancel reached the broker stays as it is (the cancel is refused), and a part filled keeps its
 * trade and legs (the trade keeper follows the fills).
 */
export class LimitTimeouts {
  readonly timer: SweepTimer

  constructor(
    private readonly deps: LimitTimeoutDeps,
    intervalMs: number,
  ) {
    this.timer = new SweepTimer(() => this.pass(), intervalMs, deps.logger, 'limit entry timeout pass')
  }

  /** One look at the deadlines passed: each record id done with what happened. */
  async pass(now = this.deps.clock()): Promise<{ recordId: number; outcome: string }[]> {
    const done: { recordId: number; outcome: string }[] = []
    for (const due of await dueLimitEntries(this.deps.db, now)) {
      const session = this.deps.sessions.session(due.user_id)
      if (!session || !(await claimLimitEntry(this.deps.db, due.record_id))) continue
      try {
        const result = await this.#expire(session, due)
        if (result === null) {
          await releaseLimitEntry(this.deps.db, due.record_id)
          continue
        }
        await markLimitEntryDone(this.deps.db, due.record_id, result.outcome, result.cancelled)
        done.push({ recordId: due.record_id, outcome: result.outcome })
      } catch (error) {
        // Left claimed but not done: taken again a minute on.
        this.deps.logger.warn({ err: error, recordId: due.record_id }, 'limit entry timeout failed; tried again on a later pass')
      }
    }
    return done
  }

  /** What the deadline did to the entry, or null when its send's outcome is not known yet. */
  async #expire(session: BrokerSession, due: DueLimitEntry): Promise<{ outcome: string; cancelled: boolean } | null> {
    const lookingFor = this.deps.clock().getTime() - due.due_at.getTime() < UNKNOWN_LOOKED_FOR_MS
    // The rest was written to go at the market on an earlier pass: only ever looked for by its tag.
    if (due.market_tag !== null) return remainderSentBefore(session, { ...due, market_tag: due.market_tag }, lookingFor)
    const tag = due.order_tag ?? orderTagOf(due.record_id)
    const order = (await session.listOrders()).find((candidate) => candidate.tag === tag && candidate.accountId === session.snapshot.account.id)
    if (!order) {
      // A send still under way, or one whose outcome is unknown (its order may yet be listed), is looked at
      // again on later passes, for a day at most: an order that turns up later is still cancelled.
      if (SENDING.has(due.status)) return null
      if (due.refusal_code === OUTCOME_UNKNOWN && lookingFor) return null
      return { outcome: `limit entry not found at the broker at its ${due.timeout_seconds} s deadline: nothing to cancel`, cancelled: false }
    }
    const market = due.on_timeout === 'market' && this.deps.sizing !== undefined
    // Cancelled by an earlier pass of ours that stopped before sending the rest: the rest is sent now.
    const cancelledByUs = market && due.cancel_asked && order.status === 'Canceled'
    if (isDone(order.status) && !cancelledByUs) return { outcome: `limit entry ${order.status === 'Filled' ? 'filled' : order.status.toLowerCase()} before its ${due.timeout_seconds} s deadline: nothing to cancel`, cancelled: false }
    if (market) await noteCancelAsked(this.deps.db, due.record_id)
    if (!cancelledByUs && !(await cancelQuietly(session, order.id))) return { outcome: `limit entry filled (or done) as its ${due.timeout_seconds} s deadline came: nothing cancelled`, cancelled: false }
    const filled = (await session.listFills()).filter((fill) => fill.orderId === order.id).reduce((sum, fill) => sum + fill.quantity, 0)
    if (market && this.deps.sizing) return sendRemainderAtMarket({ db: this.deps.db, sizing: this.deps.sizing, clock: this.deps.clock }, session, due, order, filled)
    if (filled === 0) return { outcome: `the limit entry was not filled within ${due.timeout_seconds} s (limit_timeout): cancelled`, cancelled: true }
    // The legs armed by the part filled stay (Tradovate's OSO); said plainly if the broker took them with the entry.
    const legs = (await session.listOrders()).filter((leg) => leg.parentId === order.id && !isDone(leg.status)).length
    const protection = legs > 0 ? 'the filled part stays open with its stop and target' : 'the filled part stays open WITHOUT a working stop or target at the broker'
    return { outcome: `the limit entry was ${filled} contract(s) filled within ${due.timeout_seconds} s (limit_timeout): the rest was cancelled; ${protection}`, cancelled: true }
  }
}
